package landscaperyaml

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

const kubeconfig = "apiVersion: v1\nkind: Config\nclusters: []\n"

// environment is what examples/landscaper-yaml/main.tf adds to the
// manifests: the Target and the namespace data object.
const environment = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Target
metadata: {name: local-cluster}
spec:
  type: landscaper.gardener.cloud/kubernetes-cluster
  config:
    kubeconfig: |
      apiVersion: v1
      kind: Config
      clusters: []
---
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DataObject
metadata: {name: target-namespace}
data: shop
`

func example(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "examples", "landscaper-yaml", "manifests", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func parse(t *testing.T, source, stream string) *Set {
	t.Helper()
	s, err := Parse(source, stream)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func exampleObjects(t *testing.T) *Set {
	return parse(t, "manifest_objects", example(t, "data.yaml")+"---\n"+environment)
}

func convert(t *testing.T, file, name string) *Root {
	t.Helper()
	root, err := Convert(parse(t, "manifest", example(t, file)), exampleObjects(t), name, "default")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func clusterTarget() api.Target {
	cfg, _ := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: kubeconfig})
	return api.NewTarget("local-cluster", "", api.KubernetesClusterTargetType, cfg)
}

// The example Installations convert to what the HCL form would give the
// engine: the same blueprint files, imports and mappings.
func TestConvert_Examples(t *testing.T) {
	web := convert(t, "web-config.yaml", "web-config")
	if got := web.Imports.Data; !reflect.DeepEqual(got, map[string]any{
		"namespace": "shop", "settings": map[string]any{"greeting": "hello", "color": "teal"}}) {
		t.Errorf("data imports %#v", got)
	}
	if !reflect.DeepEqual(web.Imports.Targets["cluster"], clusterTarget()) {
		t.Errorf("target import %+v", web.Imports.Targets["cluster"])
	}
	if string(web.ImportDataMappings["title"]) != `"(( settings.greeting \" from web-config\" ))"` ||
		string(web.ExportDataMappings["summary"]) != `"(( \"entries \" entries ))"` {
		t.Errorf("mappings %s %s", web.ImportDataMappings, web.ExportDataMappings)
	}
	if len(web.Blueprint.Inline) != 2 || !strings.Contains(web.Blueprint.Inline["deploy.tpl"], "web-page") {
		t.Errorf("inline blueprint files %v", web.Blueprint.Inline)
	}
	tree := convert(t, "tree.yaml", "tree")
	if m := tree.Imports.TargetMaps["clusters"]; len(m) != 1 || !reflect.DeepEqual(m["primary"], clusterTarget()) {
		t.Errorf("target map import %+v", m)
	}
	if tree.Imports.Data["message"] != "written by the writer, read by the reader" || tree.DeleteWithoutUninstall || len(tree.Warnings) > 0 {
		t.Errorf("%+v", tree)
	}
}

// rendered renders a spec and returns its deploy items by ID.
func rendered(t *testing.T, spec engine.RootSpec) map[string]engine.RenderedItem {
	t.Helper()
	tree, err := engine.Render(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]engine.RenderedItem{}
	for _, it := range tree.Items {
		out[it.ID] = it
	}
	return out
}

// The converted example renders the same deploy items (ID, target,
// configuration) as the spec the HCL form builds from the same blueprint
// files and the values written as HCL.
func TestConvert_RendersLikeHCL(t *testing.T) {
	web := convert(t, "web-config.yaml", "web-config")
	fromManifest := specOf(t, web)
	hcl := engine.RootSpec{Name: "web-config", Blueprint: fromManifest.Blueprint,
		Imports: blueprint.Imports{
			Data:    map[string]any{"namespace": "shop", "settings": map[string]any{"color": "teal", "greeting": "hello"}},
			Targets: map[string]api.Target{"cluster": clusterTarget()},
		},
		ImportDataMappings: map[string]json.RawMessage{"title": json.RawMessage(`"(( settings.greeting \" from web-config\" ))"`)},
	}
	a, b := rendered(t, fromManifest), rendered(t, hcl)
	if len(a) != 1 || !reflect.DeepEqual(a, b) {
		t.Fatalf("manifest form rendered\n%+v\nHCL form\n%+v", a, b)
	}
	if cfg := string(a["web-config/page"].Config); !strings.Contains(cfg, `"title":"hello from web-config"`) {
		t.Errorf("importDataMappings not applied: %s", cfg)
	}
	// The subinstallation tree renders the writer; the reader waits for
	// the writer's export, as in the HCL form.
	tree := rendered(t, specOf(t, convert(t, "tree.yaml", "tree")))
	if _, ok := tree["tree/writer/note"]; !ok || len(tree) != 1 {
		t.Errorf("tree items %v", tree)
	}
}

func specOf(t *testing.T, r *Root) engine.RootSpec {
	t.Helper()
	bp, comp, err := blueprint.Resolve(r.Blueprint, blueprint.ComponentSource{Inline: r.Component.Inline})
	if err != nil {
		t.Fatal(err)
	}
	return engine.RootSpec{Name: r.Name, Blueprint: bp, Component: comp, Imports: r.Imports,
		ImportDataMappings: r.ImportDataMappings, ExportDataMappings: r.ExportDataMappings}
}
