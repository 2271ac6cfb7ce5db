package deployertest

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// testLifecycle: create, no-op update without writes, update, drift is
// reported and repaired, delete waits until gone, delete is idempotent.
func testLifecycle(t *testing.T, h Harness) {
	f := newFixture(t, h)
	ns := f.namespace
	v1 := h.Config(t, ns, []map[string]any{configMap(ns, "lifecycle", "v1")})
	v2 := h.Config(t, ns, []map[string]any{configMap(ns, "lifecycle", "v2")})
	f.cleanup(t, v2)

	res := f.mustApply(t, v1)
	f.cluster.wantConfigMap(t, ns, "lifecycle", "v1")
	wantObject(t, res, deployer.ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Namespace: ns, Name: "lifecycle"})

	f.counter.Reset()
	f.mustApply(t, v1)
	if w := f.counter.Writes(); w != 0 {
		t.Fatalf("no-op apply sent %d write requests, want 0", w)
	}
	t.Logf("no-op apply: %d reads, 0 writes", f.counter.Reads())

	f.mustApply(t, v2)
	f.cluster.wantConfigMap(t, ns, "lifecycle", "v2")

	ctx := context.Background()
	report, err := f.d.Drift(ctx, f.item(t, v2, time.Minute))
	if err != nil || report.Drifted {
		t.Fatalf("Drift right after Apply = %+v, %v; want no drift", report, err)
	}
	f.cluster.setConfigMapValue(t, ns, "lifecycle", "changed-by-hand")
	report, err = f.d.Drift(ctx, f.item(t, v2, time.Minute))
	if err != nil || !report.Drifted || !strings.Contains(report.Reason, "lifecycle") {
		t.Fatalf("Drift after a manual change = %+v, %v; want drift naming the ConfigMap", report, err)
	}
	if strings.Contains(report.Reason, "changed-by-hand") {
		t.Fatalf("drift reason leaks a value: %s", report.Reason)
	}
	f.mustApply(t, v2)
	f.cluster.wantConfigMap(t, ns, "lifecycle", "v2")
	if report, err = f.d.Drift(ctx, f.item(t, v2, time.Minute)); err != nil || report.Drifted {
		t.Fatalf("Drift after repair = %+v, %v; want no drift", report, err)
	}

	f.mustDelete(t, deployer.DeleteOptions{})
	if _, ok := f.cluster.configMapValue(t, ns, "lifecycle"); ok {
		t.Fatal("ConfigMap still exists after Delete returned")
	}
	f.mustDelete(t, deployer.DeleteOptions{})
}

// testDeleteWithoutUninstall: the objects stay in the cluster.
func testDeleteWithoutUninstall(t *testing.T, h Harness) {
	f := newFixture(t, h)
	cfg := h.Config(t, f.namespace, []map[string]any{configMap(f.namespace, "kept", "v1")})
	f.mustApply(t, cfg)
	f.mustDelete(t, deployer.DeleteOptions{WithoutUninstall: true})
	f.cluster.wantConfigMap(t, f.namespace, "kept", "v1")
}

// testTimeout: an item that never becomes ready fails terminally when its
// time is up, names the object, and still records what it created.
func testTimeout(t *testing.T, h Harness) {
	f := newFixture(t, h)
	cfg := h.Config(t, f.namespace, []map[string]any{neverReadyDeployment(f.namespace)})
	f.cleanup(t, cfg)
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	started := time.Now()
	res, err := f.apply(t, ctx, cfg)
	assertTerminal(t, err, true, "never-ready")
	if took := time.Since(started); took > 15*time.Second {
		t.Fatalf("Apply took %s after a 4s timeout", took)
	}
	if !strings.Contains(string(res.ProviderStatus), "never-ready") {
		t.Fatalf("provider status does not record the Deployment: %s", res.ProviderStatus)
	}
	wantObject(t, res, deployer.ObjectRef{APIVersion: "apps/v1", Kind: "Deployment", Namespace: f.namespace, Name: "never-ready"})
}

// testInterrupt: canceling Apply right after its first write returns
// promptly; the next Apply completes the item.
func testInterrupt(t *testing.T, h Harness) {
	f := newFixture(t, h)
	var objs []map[string]any
	for i := range 5 {
		objs = append(objs, configMap(f.namespace, fmt.Sprintf("interrupted-%d", i), "v1"))
	}
	cfg := h.Config(t, f.namespace, objs)
	f.cleanup(t, cfg)
	ctx, cancel := context.WithCancel(context.Background())
	f.counter.OnWrite(cancel)
	started := time.Now()
	_, err := f.apply(t, ctx, cfg)
	f.counter.OnWrite(nil)
	if err == nil {
		t.Fatal("interrupted Apply returned no error")
	}
	if took := time.Since(started); took > 10*time.Second {
		t.Fatalf("interrupted Apply took %s to return", took)
	}
	f.mustApply(t, cfg)
	for i := range 5 {
		f.cluster.wantConfigMap(t, f.namespace, fmt.Sprintf("interrupted-%d", i), "v1")
	}
}

// testUnreachable: a cluster that does not answer is a transient error.
func testUnreachable(t *testing.T, h Harness) {
	f := newFixture(t, h)
	f.target = KubernetesTarget(t, unreachableKubeconfig)
	cfg := h.Config(t, f.namespace, []map[string]any{configMap(f.namespace, "unreachable", "v1")})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := f.d.Apply(ctx, f.item(t, cfg, time.Minute))
	assertTerminal(t, err, false, "")
	if strings.Contains(err.Error(), "secret-token-never-shown") {
		t.Fatalf("error leaks the kubeconfig's token: %v", err)
	}
	if ctx.Err() != nil {
		t.Fatalf("Apply against an unreachable cluster ran into the test's timeout: %v", err)
	}
}

// unreachableKubeconfig points at a port where nothing listens.
const unreachableKubeconfig = `apiVersion: v1
kind: Config
clusters:
- name: c
  cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}
users:
- name: u
  user: {token: secret-token-never-shown}
contexts:
- name: c
  context: {cluster: c, user: u}
current-context: c
`

// testInvalidConfig: an invalid configuration is terminal, at once.
func testInvalidConfig(t *testing.T, h Harness) {
	f := newFixture(t, h)
	_, err := f.d.Apply(context.Background(), f.item(t, h.Invalid, time.Minute))
	assertTerminal(t, err, true, "")
	if f.counter.Writes() != 0 {
		t.Fatalf("invalid config caused %d writes", f.counter.Writes())
	}
}

// testCRDAndCR: a CRD and a custom resource of it work in one item, and
// Delete removes them.
func testCRDAndCR(t *testing.T, h Harness) {
	f := newFixture(t, h)
	group := fmt.Sprintf("c%06x.conformance.example.com", rand.Uint32()&0xffffff)
	crd := map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
		"metadata": map[string]any{"name": "widgets." + group},
		"spec": map[string]any{
			"group": group, "scope": "Namespaced",
			"names": map[string]any{"kind": "Widget", "plural": "widgets", "singular": "widget", "listKind": "WidgetList"},
			"versions": []any{map[string]any{
				"name": "v1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{
					"type": "object", "x-kubernetes-preserve-unknown-fields": true,
				}},
			}},
		},
	}
	cr := map[string]any{
		"apiVersion": group + "/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w1", "namespace": f.namespace},
		"spec":     map[string]any{"size": 3},
	}
	cfg := h.Config(t, f.namespace, []map[string]any{crd, cr})
	f.mustApply(t, cfg)
	widgets := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "widgets"}
	crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	if f.cluster.get(t, widgets, f.namespace, "w1") == nil {
		t.Fatal("custom resource was not created")
	}
	f.mustDelete(t, deployer.DeleteOptions{})
	if h.KeepsCRDs {
		if f.cluster.get(t, widgets, f.namespace, "w1") != nil {
			t.Fatal("custom resource still exists after Delete")
		}
		t.Cleanup(func() { f.cluster.deleteCRD("widgets." + group) })
		return
	}
	if f.cluster.get(t, crds, "", "widgets."+group) != nil {
		t.Fatal("CRD still exists after Delete")
	}
}

// MustJSON marshals v or fails the test.
func MustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
