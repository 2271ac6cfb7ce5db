package manifest_test

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestApply_DeploymentBecomesReady: Apply returns once kwok has made both
// replicas of a Deployment available.
func TestApply_DeploymentBecomesReady(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "ready")
	labels := map[string]any{"app": "web"}
	dep := map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": ns},
		"spec": map[string]any{"replicas": 2, "selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "example.invalid/web:1"}}}}},
	}
	started := time.Now()
	it.mustApply(config(t, []map[string]any{entry("manage", dep)}, nil))
	u := getObject(t, deployments, ns, "web")
	if n, _, _ := unstructured.NestedInt64(u.Object, "status", "availableReplicas"); n != 2 {
		t.Fatalf("Apply returned with %d available replicas, want 2", n)
	}
	t.Logf("2-replica Deployment applied and ready in %s", time.Since(started).Round(time.Millisecond))
}

// TestApply_NotReadyErrorNamesCondition: a timeout says which object and
// which condition was not met.
func TestApply_NotReadyErrorNamesCondition(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "not-ready")
	labels := map[string]any{"app": "stuck"}
	dep := map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "stuck", "namespace": ns},
		"spec": map[string]any{"replicas": 1, "selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"nodeSelector": map[string]any{"nowhere": "true"}, "containers": []any{map[string]any{"name": "c", "image": "x"}}}}},
	}
	cfg := config(t, []map[string]any{entry("manage", dep)}, nil)
	t.Cleanup(func() { it.mustDelete(cfg) })
	_, err := it.apply(3*time.Second, cfg)
	if err == nil || !failure.IsTerminal(err) {
		t.Fatalf("want a terminal timeout, got %v", err)
	}
	for _, want := range []string{"Deployment " + ns + "/stuck", "replicas available"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

// TestApply_ListAndV1alpha1: v1alpha1's plain list and *List kinds are expanded.
func TestApply_ListAndV1alpha1(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "lists")
	list := map[string]any{"apiVersion": "v1", "kind": "ConfigMapList", "items": []any{
		cm(ns, "from-list-1", map[string]any{"a": "1"}), cm(ns, "from-list-2", map[string]any{"a": "2"}),
	}}
	cfg := deployertest.MustJSON(t, map[string]any{
		"apiVersion": "manifest.deployer.landscaper.gardener.cloud/v1alpha1", "kind": "ProviderConfiguration",
		"manifests": []any{list, cm(ns, "plain", map[string]any{"a": "3"})},
	})
	it.mustApply(cfg)
	for _, name := range []string{"from-list-1", "from-list-2", "plain"} {
		if dataOf(t, ns, name) == nil {
			t.Errorf("ConfigMap %s was not created", name)
		}
	}
	if !strings.Contains(string(it.status), `"policy":"manage"`) {
		t.Errorf("v1alpha1 objects are not recorded with policy manage: %s", it.status)
	}
}

// TestApply_FieldRemovedFromManifest: a field dropped from the manifest is
// removed from the object (server-side apply ownership).
func TestApply_FieldRemovedFromManifest(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "field-removal")
	it.mustApply(config(t, []map[string]any{entry("manage", cm(ns, "c", map[string]any{"a": "1", "b": "2"}))}, nil))
	it.mustApply(config(t, []map[string]any{entry("manage", cm(ns, "c", map[string]any{"a": "1"}))}, nil))
	if d := dataOf(t, ns, "c"); d["b"] != "" || d["a"] != "1" {
		t.Fatalf("data after removing b = %v, want only a=1", d)
	}
}

// TestApply_SecretStringDataIsNoOp: a Secret written with stringData is
// recognized as unchanged on the next apply.
func TestApply_SecretStringDataIsNoOp(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "secret")
	secret := map[string]any{"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s", "namespace": ns},
		"stringData": map[string]any{"password": "hunter2"}}
	cfg := config(t, []map[string]any{entry("manage", secret)}, nil)
	it.mustApply(cfg)
	it.counter.Reset()
	it.mustApply(cfg)
	if w := it.counter.Writes(); w != 0 {
		t.Fatalf("re-applying an unchanged Secret sent %d writes", w)
	}
}
