package engine

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// overwriteLandscape pushes component versions to an in-memory registry,
// each with one blueprint (a local blob): a blueprint with a
// subinstallation per component reference, or, for a leaf, one mock item
// whose config names the version it came from.
type overwriteLandscape struct {
	t   *testing.T
	mem componenttest.Memory
	rc  component.RepositorySpec
}

const blueprintLayer = "application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip"

func (l *overwriteLandscape) push(name, version, body string, refs ...string) {
	l.t.Helper()
	bp, err := componenttest.TarGz(map[string]string{"blueprint.yaml": "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n" + body})
	if err != nil {
		l.t.Fatal(err)
	}
	var refYAML []string
	for _, r := range refs {
		local, target, _ := strings.Cut(r, "=")
		cname, cversion, _ := strings.Cut(target, ":")
		refYAML = append(refYAML, fmt.Sprintf("{name: %s, componentName: %s, version: %s}", local, cname, cversion))
	}
	_, err = componenttest.PushVersion(context.Background(), l.mem.Open, l.rc, name, version, componenttest.Version{
		Descriptor: fmt.Sprintf(`meta: {schemaVersion: v2}
component:
  name: %s
  version: %s
  provider: internal
  repositoryContexts: [{type: ociRegistry, baseUrl: %q, componentNameMapping: urlPath}]
  sources: []
  componentReferences: [%s]
  resources:
  - {name: blueprint, version: %s, type: landscaper.gardener.cloud/blueprint, relation: local,
     access: {type: localBlob, localReference: %q, mediaType: %s}}
`, name, version, l.rc.BaseURL, strings.Join(refYAML, ", "), version, componenttest.Digest(bp), blueprintLayer),
		Blobs: []componenttest.Layer{{MediaType: blueprintLayer, Data: bp}},
	})
	if err != nil {
		l.t.Fatal(err)
	}
}

// subinstallationsOf is a blueprint body with one subinstallation per
// component reference name.
func subinstallationsOf(names ...string) string {
	body := "subinstallations:\n"
	for _, n := range names {
		body += fmt.Sprintf("- {apiVersion: landscaper.gardener.cloud/v1alpha1, kind: InstallationTemplate, name: %s, blueprint: {ref: 'cd://componentReferences/%s/resources/blueprint'}}\n", n, n)
	}
	return body
}

// leafBlueprint renders one mock item naming the version it came from.
func leafBlueprint(marker string) string {
	return "deployExecutions:\n- name: main\n  type: GoTemplate\n  template: |\n    deployItems:\n" +
		"    - {name: state, type: landscaper.gardener.cloud/mock, config: {from: " + marker + ", cd: '{{ .cd.component.name }}:{{ .cd.component.version }}'}}\n"
}

// renderOverwritten renders the tree of root with the overwrites, as an
// installation whose Context names them: every item's config by ID.
func (l *overwriteLandscape) renderOverwritten(root string, ovs component.Overwrites) map[string]string {
	l.t.Helper()
	reg := &component.Registry{Client: ocireg.New(ocireg.Options{CacheDir: l.t.TempDir(), Repository: l.mem.Read}), Overwrites: ovs}
	name, version, _ := strings.Cut(root, ":")
	comp, err := reg.LoadPinned(context.Background(), reg.Overwritten(component.VersionRef{Context: l.rc, Name: name, Version: version}), component.Pins{})
	if err != nil {
		l.t.Fatal(err)
	}
	bp, c, err := blueprint.Resolve(blueprint.Source{ResourceName: "blueprint"}, blueprint.ComponentSource{Loaded: comp})
	if err != nil {
		l.t.Fatal(err)
	}
	tree, err := Render(context.Background(), RootSpec{Name: "source", Blueprint: bp, Component: c}, nil)
	if err != nil {
		l.t.Fatal(err)
	}
	out := map[string]string{}
	for _, it := range tree.Items {
		out[it.ID] = string(it.Config)
	}
	return out
}

func itemsString(items map[string]string) string {
	var lines []string
	for id, cfg := range items {
		lines = append(lines, id+" "+cfg)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// ComponentVersionOverwrites, as Landscaper's own integration test of
// them exercises them (these are blueprints of our own of the same
// shape): source references intermediate and referenced; intermediate
// references referenced too; overwriting referenced's version makes both
// the direct and the indirect subinstallation render the substitute.
func TestRender_ComponentVersionOverwrites(t *testing.T) {
	l := &overwriteLandscape{t: t, mem: componenttest.Memory{}, rc: component.RepositorySpec{Type: "ociRegistry", BaseURL: "registry.test/overwrites", ComponentNameMapping: "urlPath"}}
	l.push("example.com/referenced", "v0.1.0", leafBlueprint("source"))
	l.push("example.com/referenced", "v1.2.3", leafBlueprint("overwritten"))
	l.push("example.com/intermediate", "v0.1.0", subinstallationsOf("referenced"), "referenced=example.com/referenced:v0.1.0")
	l.push("example.com/source", "v0.1.0", subinstallationsOf("intermediate", "referenced"),
		"intermediate=example.com/intermediate:v0.1.0", "referenced=example.com/referenced:v0.1.0")
	rc := l.rc
	ovs := component.Overwrites{{
		Source:       component.OverwriteRef{RepositoryContext: &rc, ComponentName: "example.com/referenced", Version: "v0.1.0"},
		Substitution: component.OverwriteRef{Version: "v1.2.3"},
	}}
	got := itemsString(l.renderOverwritten("example.com/source:v0.1.0", ovs))
	want := `source/intermediate/referenced/state {"cd":"example.com/referenced:v1.2.3","from":"overwritten"}
source/referenced/state {"cd":"example.com/referenced:v1.2.3","from":"overwritten"}`
	if got != want {
		t.Fatalf("rendered\n%s\nwant\n%s", got, want)
	}
	if got := itemsString(l.renderOverwritten("example.com/source:v0.1.0", nil)); !strings.Contains(got, `"from":"source"`) || strings.Contains(got, "overwritten") {
		t.Fatalf("without overwrites\n%s", got)
	}
}

// Overwrites apply to references of components that were themselves
// substituted: intermediate v0.1.0 becomes v0.2.0, whose reference to
// example.com/tobeoverwritten is substituted by another component name.
func TestRender_ComponentVersionOverwritesOfSubstitutes(t *testing.T) {
	l := &overwriteLandscape{t: t, mem: componenttest.Memory{}, rc: component.RepositorySpec{Type: "ociRegistry", BaseURL: "registry.test/overwrites"}}
	l.push("example.com/dummy", "v0.0.1", leafBlueprint("dummy"))
	l.push("example.com/tobeoverwritten", "v0.1.0", leafBlueprint("source"))
	l.push("example.com/referenced", "v1.2.3", leafBlueprint("overwritten"))
	l.push("example.com/intermediate", "v0.1.0", subinstallationsOf("referenced"), "referenced=example.com/dummy:v0.0.1")
	l.push("example.com/intermediate", "v0.2.0", subinstallationsOf("referenced"), "referenced=example.com/tobeoverwritten:v0.1.0")
	l.push("example.com/source", "v0.1.0", subinstallationsOf("intermediate", "referenced"),
		"intermediate=example.com/intermediate:v0.1.0", "referenced=example.com/tobeoverwritten:v0.1.0")
	ovs := component.Overwrites{
		{Source: component.OverwriteRef{ComponentName: "example.com/tobeoverwritten", Version: "v0.1.0"},
			Substitution: component.OverwriteRef{ComponentName: "example.com/referenced", Version: "v1.2.3"}},
		{Source: component.OverwriteRef{ComponentName: "example.com/intermediate", Version: "v0.1.0"},
			Substitution: component.OverwriteRef{Version: "v0.2.0"}},
	}
	got := itemsString(l.renderOverwritten("example.com/source:v0.1.0", ovs))
	want := `source/intermediate/referenced/state {"cd":"example.com/referenced:v1.2.3","from":"overwritten"}
source/referenced/state {"cd":"example.com/referenced:v1.2.3","from":"overwritten"}`
	if got != want {
		t.Fatalf("rendered\n%s\nwant\n%s", got, want)
	}
}
