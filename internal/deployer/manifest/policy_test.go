package manifest_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestApply_OwnedByOtherItem: manage refuses another item's object, fallback
// leaves it alone; neither changes it.
func TestApply_OwnedByOtherItem(t *testing.T) {
	ns := localcluster.Namespace(t)
	owner := newItem(t, "owner")
	owner.mustApply(config(t, []map[string]any{entry("manage", cm(ns, "shared", map[string]any{"v": "owner"}))}, nil))

	manage := newItem(t, "intruder-manage")
	_, err := manage.apply(minute, config(t, []map[string]any{entry("manage", cm(ns, "shared", map[string]any{"v": "intruder"}))}, nil))
	if !failure.IsTerminal(err) || failure.Reason(err) != "OwnedByOtherItem" || !strings.Contains(err.Error(), `"owner"`) {
		t.Fatalf("manage of another item's object: got %v, want terminal OwnedByOtherItem naming the owner", err)
	}
	fallback := newItem(t, "intruder-fallback")
	fallback.mustApply(config(t, []map[string]any{entry("fallback", cm(ns, "shared", map[string]any{"v": "intruder"}))}, nil))
	if strings.Contains(string(fallback.status), "shared") {
		t.Fatalf("fallback recorded another item's object: %s", fallback.status)
	}
	fallback.mustDelete(nil)
	if d := dataOf(t, ns, "shared"); d["v"] != "owner" {
		t.Fatalf("the owner's object changed: %v", d)
	}
}

// TestApply_PoliciesOnDropAndDelete: dropped manage objects are deleted,
// keep objects stay, ignore objects are never created, immutable objects
// are never updated, and an object switched to ignore is forgotten.
func TestApply_PoliciesOnDropAndDelete(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "policies")
	v1 := config(t, []map[string]any{
		entry("manage", cm(ns, "managed", map[string]any{"v": "1"})),
		entry("manage", cm(ns, "dropped", map[string]any{"v": "1"})),
		entry("keep", cm(ns, "kept", map[string]any{"v": "1"})),
		entry("ignore", cm(ns, "ignored", map[string]any{"v": "1"})),
		entry("immutable", cm(ns, "frozen", map[string]any{"v": "1"})),
	}, nil)
	it.mustApply(v1)
	if dataOf(t, ns, "ignored") != nil {
		t.Fatal("policy ignore created an object")
	}
	v2 := config(t, []map[string]any{
		entry("manage", cm(ns, "managed", map[string]any{"v": "2"})),
		entry("immutable", cm(ns, "frozen", map[string]any{"v": "2"})),
	}, nil)
	it.mustApply(v2)
	if dataOf(t, ns, "dropped") != nil {
		t.Error("an object dropped from the config was not deleted")
	}
	if dataOf(t, ns, "kept") == nil {
		t.Error("a keep object dropped from the config was deleted")
	}
	if d := dataOf(t, ns, "frozen"); d["v"] != "1" {
		t.Errorf("an immutable object was updated: %v", d)
	}
	// Switching an object to ignore forgets it: Delete leaves it.
	v3 := config(t, []map[string]any{
		entry("ignore", cm(ns, "managed", map[string]any{"v": "3"})),
		entry("immutable", cm(ns, "frozen", map[string]any{"v": "2"})),
	}, nil)
	it.mustApply(v3)
	if d := dataOf(t, ns, "managed"); d["v"] != "2" {
		t.Errorf("an ignored object was updated: %v", d)
	}
	it.mustDelete(v3)
	if dataOf(t, ns, "frozen") != nil {
		t.Error("Delete left an immutable object")
	}
	if dataOf(t, ns, "managed") == nil {
		t.Error("Delete removed an object switched to ignore")
	}
	if dataOf(t, ns, "kept") == nil {
		t.Error("Delete removed a keep object")
	}
}

// TestApply_UpdateStrategies: merge keeps values changed in the cluster,
// update and mergeOverwrite restore the manifest's.
func TestApply_UpdateStrategies(t *testing.T) {
	for _, tc := range []struct{ strategy, want string }{
		{"merge", "changed"}, {"mergeOverwrite", "manifest"}, {"update", "manifest"}, {"patch", "manifest"},
	} {
		t.Run(tc.strategy, func(t *testing.T) {
			ns := localcluster.Namespace(t)
			it := newItem(t, "strategy-"+tc.strategy)
			extra := map[string]any{"updateStrategy": tc.strategy}
			it.mustApply(config(t, []map[string]any{entry("manage", cm(ns, "c", map[string]any{"v": "manifest"}))}, extra))
			client := dyn(t).Resource(configMaps).Namespace(ns)
			u, err := client.Get(context.Background(), "c", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_ = unstructured.SetNestedField(u.Object, "changed", "data", "v")
			if _, err := client.Update(context.Background(), u, metav1.UpdateOptions{FieldManager: "someone"}); err != nil {
				t.Fatal(err)
			}
			it.mustApply(config(t, []map[string]any{entry("manage", cm(ns, "c", map[string]any{"v": "manifest", "added": "yes"}))}, extra))
			d := dataOf(t, ns, "c")
			if d["v"] != tc.want || d["added"] != "yes" {
				t.Fatalf("data = %v, want v=%s and added=yes", d, tc.want)
			}
		})
	}
}
