package manifest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestDelete_DeletionGroups: custom groups run in order, deleteAllResources
// also removes unmanaged objects of the type, and the rest follows.
func TestDelete_DeletionGroups(t *testing.T) {
	ns := localcluster.Namespace(t)
	stray := cm(ns, "stray", map[string]any{"v": "unmanaged"})
	if _, err := dyn(t).Resource(configMaps).Namespace(ns).Create(context.Background(), unstructuredOf(stray), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	it := newItem(t, "groups")
	secret := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s", "namespace": ns}, "data": map[string]any{}}
	groups := map[string]any{"deletionGroups": []any{
		map[string]any{"customResourceGroup": map[string]any{"deleteAllResources": true,
			"resources": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "names": []any{"managed", "stray"}, "namespaces": []any{ns}}}}},
		map[string]any{"predefinedResourceGroup": map[string]any{"type": "namespaced-resources"}},
	}}
	cfg := config(t, []map[string]any{entry("manage", cm(ns, "managed", map[string]any{"v": "1"})), entry("manage", secret)}, groups)
	it.mustApply(cfg)
	it.mustDelete(cfg)
	if dataOf(t, ns, "managed") != nil || dataOf(t, ns, "stray") != nil {
		t.Error("the custom group's ConfigMaps were not deleted")
	}
	if _, err := dyn(t).Resource(secrets).Namespace(ns).Get(context.Background(), "s", metav1.GetOptions{}); err == nil {
		t.Error("the Secret of the predefined group was not deleted")
	}
}

// TestDelete_WithoutStatus: objects the item labeled are deleted even
// when the status that recorded them was lost; others' objects are not.
func TestDelete_WithoutStatus(t *testing.T) {
	ns := localcluster.Namespace(t)
	other := newItem(t, "other-owner")
	other.mustApply(config(t, []map[string]any{entry("manage", cm(ns, "not-mine", map[string]any{"v": "1"}))}, nil))
	it := newItem(t, "lost-status")
	cfg := config(t, []map[string]any{entry("manage", cm(ns, "mine", map[string]any{"v": "1"})), entry("fallback", cm(ns, "not-mine", map[string]any{"v": "2"}))}, nil)
	it.mustApply(cfg)
	it.status = nil
	it.mustDelete(cfg)
	if dataOf(t, ns, "mine") != nil {
		t.Error("an object labeled by the item survived Delete without status")
	}
	if dataOf(t, ns, "not-mine") == nil {
		t.Error("Delete removed another item's object")
	}
}

// TestDelete_DeleteTimeout: deleteTimeout bounds the wait for an object
// that cannot go (a finalizer nobody removes), and the error names it.
func TestDelete_DeleteTimeout(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "stuck-delete")
	held := cm(ns, "held", map[string]any{"v": "1"})
	held["metadata"].(map[string]any)["finalizers"] = []any{"example.com/hold"}
	cfg := config(t, []map[string]any{entry("manage", held)}, map[string]any{"deleteTimeout": "1s"})
	it.mustApply(cfg)
	t.Cleanup(func() {
		_, _ = dyn(t).Resource(configMaps).Namespace(ns).Patch(context.Background(), "held", types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
	})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	started := time.Now()
	err := it.d.Delete(ctx, it.di(cfg), deployer.DeleteOptions{})
	if err == nil || !strings.Contains(err.Error(), "ConfigMap "+ns+"/held still exists") {
		t.Fatalf("Delete = %v, want a timeout naming the ConfigMap", err)
	}
	if took := time.Since(started); took > 10*time.Second {
		t.Fatalf("Delete took %s with deleteTimeout 1s", took)
	}
}
