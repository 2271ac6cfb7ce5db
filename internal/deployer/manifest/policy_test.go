package manifest_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
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

// TestApply_FallbackLeavesUnlabelledObjects: as in Landscaper, policy
// fallback leaves an existing object alone that does not carry the item's
// label — also one nobody labelled — and neither records nor deletes it;
// an object the item created itself it keeps managing.
func TestApply_FallbackLeavesUnlabelledObjects(t *testing.T) {
	ns := localcluster.Namespace(t)
	client := dyn(t).Resource(configMaps).Namespace(ns)
	if _, err := client.Create(context.Background(), unstructuredOf(cm(ns, "by-hand", map[string]any{"v": "hand"})), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	it := newItem(t, "fallback-unlabelled")
	objs := func(v string) []map[string]any {
		return []map[string]any{entry("fallback", cm(ns, "by-hand", map[string]any{"v": v})), entry("fallback", cm(ns, "own", map[string]any{"v": v}))}
	}
	it.mustApply(config(t, objs("item"), nil))
	if d := dataOf(t, ns, "by-hand"); d["v"] != "hand" {
		t.Fatalf("fallback changed an unlabelled object: %v", d)
	}
	if strings.Contains(string(it.status), "by-hand") {
		t.Fatalf("fallback recorded an object it left alone: %s", it.status)
	}
	it.mustApply(config(t, objs("again"), nil))
	if d := dataOf(t, ns, "own"); d["v"] != "again" {
		t.Fatalf("fallback stopped managing the object it created: %v", d)
	}
	it.mustDelete(config(t, objs("again"), nil))
	if dataOf(t, ns, "by-hand") == nil || dataOf(t, ns, "own") != nil {
		t.Fatalf("after Delete: by-hand %v (want kept), own %v (want gone)", dataOf(t, ns, "by-hand"), dataOf(t, ns, "own"))
	}
}

// TestDrift_MergeKeepsClusterValues: under updateStrategy merge, a value
// changed in the cluster is what the next apply keeps, so it is no drift
// (before, every refresh reported it and no apply repaired it); a field
// deleted in the cluster is drift, and the apply restores it. Under
// update the changed value is drift and the apply restores it.
func TestDrift_MergeKeepsClusterValues(t *testing.T) {
	for _, strategy := range []string{"merge", "update"} {
		t.Run(strategy, func(t *testing.T) {
			ns := localcluster.Namespace(t)
			it := newItem(t, "drift-"+strategy)
			cfg := config(t, []map[string]any{entry("manage", cm(ns, "c", map[string]any{"v": "manifest", "w": "manifest"}))}, map[string]any{"updateStrategy": strategy})
			it.mustApply(cfg)
			client := dyn(t).Resource(configMaps).Namespace(ns)
			u, err := client.Get(context.Background(), "c", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_ = unstructured.SetNestedField(u.Object, "changed", "data", "v")
			if _, err := client.Update(context.Background(), u, metav1.UpdateOptions{FieldManager: "someone"}); err != nil {
				t.Fatal(err)
			}
			drift := func() deployer.DriftReport {
				t.Helper()
				r, err := it.d.Drift(context.Background(), it.di(cfg))
				if err != nil {
					t.Fatal(err)
				}
				return r
			}
			if r := drift(); r.Drifted != (strategy == "update") {
				t.Fatalf("changed value: drift %+v, want drifted=%v", r, strategy == "update")
			}
			it.mustApply(cfg)
			if r := drift(); r.Drifted {
				t.Fatalf("after the apply: still drifted: %s", r.Reason)
			}
			want := map[string]string{"merge": "changed", "update": "manifest"}[strategy]
			if d := dataOf(t, ns, "c"); d["v"] != want {
				t.Fatalf("v = %q after the apply, want %q", d["v"], want)
			}
			// A field deleted in the cluster is drift under both, and repaired.
			u, err = client.Get(context.Background(), "c", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			unstructured.RemoveNestedField(u.Object, "data", "w")
			if _, err := client.Update(context.Background(), u, metav1.UpdateOptions{FieldManager: "someone"}); err != nil {
				t.Fatal(err)
			}
			if r := drift(); !r.Drifted || !strings.Contains(r.Reason, ".data.w") {
				t.Fatalf("deleted field: drift %+v, want drifted at .data.w", r)
			}
			it.mustApply(cfg)
			if d := dataOf(t, ns, "c"); d["w"] != "manifest" {
				t.Fatalf("w = %q after the apply, want it restored", d["w"])
			}
		})
	}
}

// TestApply_StrategiesAndOtherManagers pins down what each strategy does
// with fields beside the manifest's (the provider's server-side apply;
// the field table says where Landscaper differs): a field another manager
// added survives every strategy; a field this item set and then dropped
// from its manifest is removed by every strategy; a value another
// manager changed is kept by merge alone.
func TestApply_StrategiesAndOtherManagers(t *testing.T) {
	for _, strategy := range []string{"update", "patch", "merge", "mergeOverwrite"} {
		t.Run(strategy, func(t *testing.T) {
			ns := localcluster.Namespace(t)
			it := newItem(t, "managers-"+strategy)
			extra := map[string]any{"updateStrategy": strategy}
			it.mustApply(config(t, []map[string]any{entry("manage", cm(ns, "c", map[string]any{"v": "manifest", "dropped": "x"}))}, extra))
			client := dyn(t).Resource(configMaps).Namespace(ns)
			u, err := client.Get(context.Background(), "c", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_ = unstructured.SetNestedField(u.Object, "theirs", "data", "other")
			_ = unstructured.SetNestedField(u.Object, "changed", "data", "v")
			if _, err := client.Update(context.Background(), u, metav1.UpdateOptions{FieldManager: "someone"}); err != nil {
				t.Fatal(err)
			}
			it.mustApply(config(t, []map[string]any{entry("manage", cm(ns, "c", map[string]any{"v": "manifest"}))}, extra))
			d := dataOf(t, ns, "c")
			wantV := map[string]string{"merge": "changed"}[strategy]
			if wantV == "" {
				wantV = "manifest"
			}
			if d["other"] != "theirs" || d["v"] != wantV {
				t.Errorf("data %v: want other=theirs (another manager's field survives) and v=%s", d, wantV)
			}
			if _, ok := d["dropped"]; ok {
				t.Errorf("data %v: the field dropped from the manifest is still there", d)
			}
		})
	}
}
