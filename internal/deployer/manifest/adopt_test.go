package manifest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// landscaperDeployed creates obj as Landscaper's manifest deployer leaves
// it (its deploy-item label with the DeployItem's name) and returns the
// managedResources entry Landscaper records for it.
func landscaperDeployed(t *testing.T, obj map[string]any, policy, deployItem string) map[string]any {
	t.Helper()
	u := &unstructured.Unstructured{Object: obj}
	u = u.DeepCopy()
	u.SetLabels(map[string]string{deployer.LandscaperManifestItemLabel: deployItem})
	created, err := dyn(t).Resource(configMaps).Namespace(u.GetNamespace()).Create(context.Background(), u, metav1.CreateOptions{FieldManager: "landscaper"})
	if err != nil {
		t.Fatal(err)
	}
	return map[string]any{"policy": policy, "resource": map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap", "name": created.GetName(), "namespace": created.GetNamespace(), "uid": string(created.GetUID()),
	}}
}

func landscaperStatus(t *testing.T, resources ...map[string]any) json.RawMessage {
	return deployertest.MustJSON(t, map[string]any{"apiVersion": "manifest.deployer.landscaper.gardener.cloud/v1alpha2", "kind": "ProviderStatus", "managedResources": resources})
}

func resourceVersions(t *testing.T, ns string, names ...string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range names {
		if u := getObject(t, configMaps, ns, n); u != nil {
			out[n] = u.GetResourceVersion()
		}
	}
	return out
}

// TestAdopt_TakesOverWithoutWriting: what Landscaper's manifest deployer
// deployed is adopted without a single write (resourceVersions stay),
// drift then finds nothing, a change made afterwards is found, and
// Delete removes every adopted object; the next Apply relabels.
func TestAdopt_TakesOverWithoutWriting(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "adopt/root/item")
	objs := []map[string]any{cm(ns, "a", map[string]any{"v": "1"}), cm(ns, "b", map[string]any{"v": "2"})}
	status := landscaperStatus(t, landscaperDeployed(t, objs[0], "manage", "di-abc"), landscaperDeployed(t, objs[1], "manage", "di-abc"))
	before := resourceVersions(t, ns, "a", "b")
	cfg := config(t, []map[string]any{entry("manage", objs[0]), entry("manage", objs[1])}, nil)

	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	adopted, err := it.d.Adopt(ctx, it.di(cfg), deployer.Landscaped{DeployItem: "di-abc", ProviderStatus: status})
	if err != nil {
		t.Fatalf("Adopt: %v", err)
	}
	managed, err := manifest.DecodeStatus(adopted)
	if err != nil || len(managed) != 2 || managed[0].Resource.UID == "" {
		t.Fatalf("adopted status %s (%v): want both ConfigMaps with their UIDs", adopted, err)
	}
	it.status = adopted
	report, err := it.d.Drift(ctx, it.di(cfg))
	if err != nil || report.Drifted {
		t.Fatalf("Drift after Adopt = %+v, %v; want nothing drifted", report, err)
	}
	if after := resourceVersions(t, ns, "a", "b"); after["a"] != before["a"] || after["b"] != before["b"] {
		t.Fatalf("resourceVersions %v after Adopt and Drift, want unchanged %v", after, before)
	}

	if _, err := dyn(t).Resource(configMaps).Namespace(ns).Patch(ctx, "b", types.MergePatchType, []byte(`{"data":{"v":"9"}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if report, err := it.d.Drift(ctx, it.di(cfg)); err != nil || !report.Drifted || !strings.Contains(report.Reason, "/b differs") {
		t.Errorf("Drift after a change = %+v, %v; want b reported", report, err)
	}

	it.mustApply(cfg)
	if u := getObject(t, configMaps, ns, "b"); u.GetLabels()[deployer.OwnerLabel] != deployer.OwnerValue(it.id) || dataOf(t, ns, "b")["v"] != "2" {
		t.Errorf("after Apply b has labels %v and data %v, want this item's label and v=2", u.GetLabels(), dataOf(t, ns, "b"))
	}
	it.mustDelete(cfg)
	if left := resourceVersions(t, ns, "a", "b"); len(left) != 0 {
		t.Errorf("left after Delete: %v", left)
	}
}

// TestAdopt_DeleteRightAfterAdopt: Delete of an item that was only
// adopted removes its objects, also those with policy fallback.
func TestAdopt_DeleteRightAfterAdopt(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "adopt/root/del")
	objs := []map[string]any{cm(ns, "x", map[string]any{"v": "1"}), cm(ns, "y", map[string]any{"v": "1"})}
	status := landscaperStatus(t, landscaperDeployed(t, objs[0], "manage", "di-del"), landscaperDeployed(t, objs[1], "fallback", "di-del"))
	cfg := config(t, []map[string]any{entry("manage", objs[0]), entry("fallback", objs[1])}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	adopted, err := it.d.Adopt(ctx, it.di(cfg), deployer.Landscaped{DeployItem: "di-del", ProviderStatus: status})
	if err != nil {
		t.Fatalf("Adopt: %v", err)
	}
	it.status = adopted
	it.mustDelete(cfg)
	if left := resourceVersions(t, ns, "x", "y"); len(left) != 0 {
		t.Errorf("left after Delete: %v", left)
	}
}

// TestAdopt_Refusals: an object Landscaper recorded that is gone, was
// recreated, or carries another DeployItem's label fails the adoption
// naming it; an unknown status shape too. Nothing is written.
func TestAdopt_Refusals(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "adopt/root/refuse")
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	mine := landscaperDeployed(t, cm(ns, "mine", map[string]any{"v": "1"}), "manage", "di-mine")
	other := landscaperDeployed(t, cm(ns, "other", map[string]any{"v": "1"}), "manage", "di-other")
	gone := landscaperDeployed(t, cm(ns, "gone", map[string]any{"v": "1"}), "manage", "di-mine")
	if err := dyn(t).Resource(configMaps).Namespace(ns).Delete(ctx, "gone", metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Fatal(err)
	}
	recreated := landscaperDeployed(t, cm(ns, "again", map[string]any{"v": "1"}), "manage", "di-mine")
	if err := dyn(t).Resource(configMaps).Namespace(ns).Delete(ctx, "again", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	landscaperDeployed(t, cm(ns, "again", map[string]any{"v": "1"}), "manage", "di-mine")
	before := resourceVersions(t, ns, "mine", "other", "again")
	for _, tc := range []struct {
		name   string
		status json.RawMessage
		want   string
	}{
		{"other's", landscaperStatus(t, mine, other), "ConfigMap " + ns + "/other is not labeled as deployed by Landscaper's DeployItem di-mine"},
		{"gone", landscaperStatus(t, mine, gone), "ConfigMap " + ns + "/gone, which Landscaper's DeployItem di-mine records, does not exist"},
		{"recreated", landscaperStatus(t, recreated), "ConfigMap " + ns + "/again was recreated"},
		{"shape", json.RawMessage(`{"managedResources":[{"resource":{"kind":"ConfigMap"}}]}`), "managedResources[0]: resource needs apiVersion, kind and name"},
	} {
		_, err := it.d.Adopt(ctx, it.di(config(t, nil, nil)), deployer.Landscaped{DeployItem: "di-mine", ProviderStatus: tc.status})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Adopt error %v, want %q", tc.name, err, tc.want)
		}
	}
	if after := resourceVersions(t, ns, "mine", "other", "again"); len(after) != 3 || after["mine"] != before["mine"] || after["other"] != before["other"] || after["again"] != before["again"] {
		t.Errorf("resourceVersions %v, want unchanged %v", after, before)
	}
}
