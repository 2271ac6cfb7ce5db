package manifest

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// TestPreview_Objects: a preview is the objects Apply decodes — lists
// expanded, stringData folded, annotateBeforeCreate added — without the
// owner bookkeeping, with the policy in the note; no cluster (nil pool).
func TestPreview_Objects(t *testing.T) {
	config := json.RawMessage(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration",
	 "manifests":[
	  {"policy":"manage","manifest":{"apiVersion":"v1","kind":"Secret","metadata":{"name":"s","namespace":"a","labels":{"app":"x"}},"stringData":{"k":"v"}}},
	  {"policy":"keep","annotateBeforeCreate":{"note":"hi"},"patchAfterDeployment":{"data":{"x":"1"}},
	   "manifest":{"apiVersion":"v1","kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c1"}},{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c2"}}]}}
	 ]}`)
	p, err := New(nil).Preview(context.Background(), deployer.PreviewRequest{Item: deployer.Item{ID: "root/web", Config: config}})
	if err != nil {
		t.Fatal(err)
	}
	want := []deployer.PreviewObject{
		{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s", "namespace": "a", "labels": map[string]any{"app": "x"}},
			"data": map[string]any{"k": "dg=="}}},
		{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c1", "annotations": map[string]any{"note": "hi"}}},
			Note: "policy: keep (never deleted); patched after deployment"},
		{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c2", "annotations": map[string]any{"note": "hi"}}},
			Note: "policy: keep (never deleted); patched after deployment"},
	}
	if !reflect.DeepEqual(p.Objects, want) {
		t.Errorf("objects =\n%#v\nwant\n%#v", p.Objects, want)
	}
}

// TestPreview_InvalidConfig: what Validate refuses, Preview refuses, terminally.
func TestPreview_InvalidConfig(t *testing.T) {
	for _, config := range []string{`{"kind":"Other"}`, `{"manifests":[{"manifest":{"kind":"ConfigMap"}}]}`} {
		_, err := New(nil).Preview(context.Background(), deployer.PreviewRequest{Item: deployer.Item{ID: "root/web", Config: json.RawMessage(config)}})
		if err == nil || !failure.IsTerminal(err) {
			t.Errorf("%s: err = %v, want a terminal error", config, err)
		}
	}
}

// TestRegistryPreviewer: the registry finds previewers by type.
func TestRegistryPreviewer(t *testing.T) {
	r := deployer.NewRegistry()
	r.Register(Type, New(nil))
	if _, ok := r.Previewer(Type); !ok {
		t.Error("the manifest deployer is no Previewer")
	}
	if _, ok := r.Previewer("unknown"); ok {
		t.Error("an unknown type has a Previewer")
	}
}
