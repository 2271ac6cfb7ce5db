package preview

import (
	"reflect"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// TestDocuments: an item's text gives back the refs and notes of its
// objects, a namespaced and a cluster-scoped one, a duplicate included.
func TestDocuments(t *testing.T) {
	objs := []deployer.PreviewObject{
		{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "a", "namespace": "ns"},
			"data": map[string]any{"text": "line one\n# not a header\n---\nline four"}}, Note: "policy: keep (never deleted)\nsecond line"},
		{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "ns"}}},
		{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "ns"}}, Note: "helm hook: pre-install"},
	}
	texts, err := NewRenderer(nil, nil).Item("root/item", objs)
	if err != nil {
		t.Fatal(err)
	}
	got := Documents(Join(ItemPrefix("root/item"), texts))
	want := []Document{
		{Ref: deployer.ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Namespace: "ns", Name: "a"}, Note: "policy: keep (never deleted)\nsecond line"},
		{Ref: deployer.ObjectRef{APIVersion: "v1", Kind: "Namespace", Name: "ns"}},
		{Ref: deployer.ObjectRef{APIVersion: "v1", Kind: "Namespace", Name: "ns"}, Note: "helm hook: pre-install"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("documents\n got %+v\nwant %+v", got, want)
	}
}
