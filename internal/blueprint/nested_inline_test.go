package blueprint

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// nestedDescriptor is a v2 descriptor (JSON) of name with a blueprint
// resource in the registry and the component references refs.
func nestedDescriptor(name string, refs ...string) string {
	return `{"meta": {"schemaVersion": "v2"}, "component": {"name": "example.com/` + name + `", "version": "1.0.0",
  "provider": "internal", "repositoryContexts": [], "sources": [],
  "resources": [{"name": "blueprint", "version": "1.0.0", "type": "landscaper.gardener.cloud/blueprint", "relation": "external",
    "access": {"type": "ociArtifact", "imageReference": "registry.test/blueprints/` + name + `:1.0.0"}}],
  "componentReferences": [` + strings.Join(refs, ",") + `]}}`
}

// nestedRef is a component reference to name whose label holds its
// descriptor.
func nestedRef(name, descriptor string) string {
	return `{"name": "` + name + `", "componentName": "example.com/` + name + `", "version": "1.0.0",
  "labels": [{"name": "landscaper.gardener.cloud/component-descriptor", "value": ` + descriptor + `}]}`
}

// A component reference's landscaper.gardener.cloud/component-descriptor
// label holds the referenced descriptor, to any depth: root references
// child inline, child references grandchild inline, and the blueprints
// `cd://componentReferences/…` names resolve through them without the
// registry holding any descriptor. As in Landscaper, each such
// subinstallation sees its component as `cd` and gets it inline as its
// componentDescriptorDef.
func TestNestedInlineDescriptors(t *testing.T) {
	ctx := context.Background()
	mem := componenttest.Memory{}
	sub := func(name string) string {
		return "subinstallations:\n- apiVersion: landscaper.gardener.cloud/v1alpha1\n  kind: InstallationTemplate\n  name: " + name +
			"\n  blueprint: {ref: cd://componentReferences/" + name + "/resources/blueprint}\n"
	}
	leaf := `deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: leaf
      type: landscaper.gardener.cloud/mock
      config: {component: {{ .cd.component.name }}, def: {{ .componentDescriptorDef.inline.component.name }}}
`
	for name, body := range map[string]string{"child": sub("grandchild"), "grandchild": leaf} {
		tgz, err := componenttest.TarGz(map[string]string{"blueprint.yaml": "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n" + body})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := componenttest.PushArtifact(ctx, mem.Open, "registry.test/blueprints/"+name+":1.0.0",
			componenttest.Layer{MediaType: "application/vnd.gardener.landscaper.blueprint.config.v1", Data: []byte("{}")},
			componenttest.Layer{MediaType: "application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip", Data: tgz}); err != nil {
			t.Fatal(err)
		}
	}
	grandchild := nestedDescriptor("grandchild")
	child := nestedDescriptor("child", nestedRef("grandchild", grandchild))
	root := nestedDescriptor("root", nestedRef("child", child))
	reg := &component.Registry{Client: ocireg.New(ocireg.Options{CacheDir: t.TempDir(), Repository: mem.Read})}
	bp, comp, err := Resolve(Source{Inline: map[string]string{"blueprint.yaml": "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n" + sub("child")}},
		ComponentSource{Inline: root, Registry: reg})
	if err != nil {
		t.Fatal(err)
	}
	step := func(parent *Blueprint, comp *Component, name string) *Blueprint {
		t.Helper()
		b, err := parent.Subinstallation(api.SubinstallationTemplate{Name: name,
			Blueprint: api.SubinstallationBlueprint{Ref: "cd://componentReferences/" + name + "/resources/blueprint"}}, comp)
		if err != nil {
			t.Fatalf("subinstallation %s: %v", name, err)
		}
		if b.Component.Descriptor.Component.Name != "example.com/"+name || b.Component.Definition["inline"] == nil {
			t.Fatalf("subinstallation %s: component %s, definition %v", name, b.Component.Descriptor.Component.Name, b.Component.Definition)
		}
		return b
	}
	childBP := step(bp, comp, "child")
	leafBP := step(childBP, childBP.Component, "grandchild")
	r, err := leafBP.Render(context.Background(), RenderInput{Component: leafBP.Component})
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]string
	if len(r.DeployItems) != 1 || json.Unmarshal(r.DeployItems[0].Config, &cfg) != nil ||
		cfg["component"] != "example.com/grandchild" || cfg["def"] != "example.com/grandchild" {
		t.Fatalf("rendered %+v", r.DeployItems)
	}
}

// A label whose descriptor is not the one the reference names, or that
// is no descriptor, fails naming the reference.
func TestNestedInlineDescriptors_Errors(t *testing.T) {
	for want, cd := range map[string]string{
		`component reference "child" names example.com/child:1.0.0, but its label landscaper.gardener.cloud/component-descriptor holds example.com/other:1.0.0`: nestedDescriptor("root", nestedRef("child", nestedDescriptor("other"))),
		`component reference "child": label landscaper.gardener.cloud/component-descriptor: component descriptor`:                                               nestedDescriptor("root", nestedRef("child", `"just a string"`)),
	} {
		if _, err := component.FromInline([]byte(cd)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v, want %q", err, want)
		}
	}
	deep := nestedDescriptor("child")
	for i := 0; i < 40; i++ {
		deep = nestedDescriptor("child", nestedRef("child", deep))
	}
	if _, err := component.FromInline([]byte(deep)); err == nil || !strings.Contains(err.Error(), "nest deeper than") {
		t.Errorf("40 levels: %v", err)
	}
}

// Templates reach nested components as landscaper-service's
// landscaper-instance blueprints do (getComponent of a component
// getComponent returned, getResource on it, ociRefRepo/ociRefVersion of
// an image reference), all from one inline descriptor.
func TestNestedInlineDescriptors_Templates(t *testing.T) {
	grandchild := nestedDescriptor("grandchild")
	root := nestedDescriptor("root", nestedRef("child", nestedDescriptor("child", nestedRef("grandchild", grandchild))))
	bp := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    {{ $child := getComponent .cd "name" "child" }}
    {{ $grandchild := getComponent $child "name" "grandchild" }}
    {{ $ref := (getResource $grandchild "name" "blueprint").access.imageReference }}
    deployItems:
    - name: image
      type: landscaper.gardener.cloud/mock
      config: {repo: {{ ociRefRepo $ref }}, version: {{ ociRefVersion $ref }}, components: {{ len .components.components }}}
`
	b, c, err := Resolve(Source{Inline: map[string]string{"blueprint.yaml": bp}}, ComponentSource{Inline: root})
	if err != nil {
		t.Fatal(err)
	}
	r, err := b.Render(context.Background(), RenderInput{Component: c})
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if len(r.DeployItems) != 1 || json.Unmarshal(r.DeployItems[0].Config, &cfg) != nil ||
		cfg["repo"] != "registry.test/blueprints/grandchild" || cfg["version"] != "1.0.0" || cfg["components"] != float64(3) {
		t.Fatalf("rendered %s", r.DeployItems[0].Config)
	}
}
