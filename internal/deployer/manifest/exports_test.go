package manifest_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestApply_Exports: values are read by jsonPath from a resource, and
// through an object reference to another resource.
func TestApply_Exports(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "exports")
	objs := []map[string]any{
		entry("manage", cm(ns, "source", map[string]any{"url": "https://example.com", "list": "a"})),
		entry("manage", cm(ns, "target", map[string]any{"secret": "found-through-ref"})),
	}
	// A ConfigMap cannot hold an object, so the reference is read from the
	// ConfigMap's own metadata: {name, namespace} of "target".
	extra := map[string]any{"exports": map[string]any{"exports": []any{
		map[string]any{"key": "url", "jsonPath": ".data.url",
			"fromResource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "source", "namespace": ns}},
		map[string]any{"key": "viaRef", "jsonPath": ".metadata",
			"fromResource":  map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "target", "namespace": ns},
			"fromObjectRef": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "jsonPath": ".data.secret"}},
		map[string]any{"key": "whole", "jsonPath": "{.data}",
			"fromResource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "source", "namespace": ns}},
	}}}
	res := it.mustApply(config(t, objs, extra))
	got, _ := json.Marshal(res.Exports)
	for _, want := range []string{`"url":"https://example.com"`, `"viaRef":"found-through-ref"`, `"whole":{"list":"a","url":"https://example.com"}`} {
		if !strings.Contains(string(got), want) {
			t.Errorf("exports %s do not contain %s", got, want)
		}
	}
}

// TestApply_CustomReadinessChecks: a custom check passes when its
// requirement holds and times out naming the check when it does not.
func TestApply_CustomReadinessChecks(t *testing.T) {
	ns := localcluster.Namespace(t)
	// values as Landscaper's docs write them: [{value: …}].
	check := func(op string, values ...any) map[string]any {
		wrapped := []any{}
		for _, v := range values {
			wrapped = append(wrapped, map[string]any{"value": v})
		}
		return map[string]any{"readinessChecks": map[string]any{"custom": []any{map[string]any{
			"name":             "phase-check",
			"resourceSelector": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "state", "namespace": ns}},
			"requirements":     []any{map[string]any{"jsonPath": ".data.phase", "operator": op, "values": wrapped}},
		}}}}
	}
	objs := []map[string]any{entry("manage", cm(ns, "state", map[string]any{"phase": "done"}))}
	it := newItem(t, "custom-ok")
	for _, c := range []map[string]any{check("==", "done"), check("in", "x", "done"), check("notin", "x"), check("exists")} {
		if _, err := it.apply(minute, config(t, objs, c)); err != nil {
			t.Fatalf("check %v: %v", c, err)
		}
	}
	byLabel := map[string]any{"readinessChecks": map[string]any{"custom": []any{map[string]any{
		"name":          "by-label",
		"labelSelector": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "matchLabels": map[string]any{"landscaper.gardener.cloud/deploy-item": ownerOf("custom-ok")}},
		"requirements":  []any{map[string]any{"jsonPath": ".data.phase", "operator": "=", "values": []any{map[string]any{"value": "done"}}}},
	}}}}
	if _, err := it.apply(minute, config(t, objs, byLabel)); err != nil {
		t.Fatalf("label selector check: %v", err)
	}
	_, err := it.apply(2e9, config(t, objs, check("!=", "done")))
	if err == nil || !strings.Contains(err.Error(), "phase-check") || !strings.Contains(err.Error(), ".data.phase") {
		t.Fatalf("failing check: got %v, want a timeout naming the check and path", err)
	}
}

// TestApply_PatchAfterDeploymentAndAnnotations: annotateBeforeCreate is on
// the object, patchAfterDeployment is applied after readiness, and neither
// makes a re-apply write again.
func TestApply_PatchAfterDeploymentAndAnnotations(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "hooks")
	e := entry("manage", cm(ns, "hooked", map[string]any{"v": "1"}))
	e["annotateBeforeCreate"] = map[string]any{"example.com/created-by": "test"}
	e["patchAfterDeployment"] = map[string]any{"data": map[string]any{"patched": "yes"}}
	cfg := config(t, []map[string]any{e}, nil)
	it.mustApply(cfg)
	u, err := dyn(t).Resource(configMaps).Namespace(ns).Get(context.Background(), "hooked", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if u.GetAnnotations()["example.com/created-by"] != "test" {
		t.Errorf("annotateBeforeCreate missing: %v", u.GetAnnotations())
	}
	if d := dataOf(t, ns, "hooked"); d["patched"] != "yes" || d["v"] != "1" {
		t.Errorf("patchAfterDeployment not applied: %v", d)
	}
	it.counter.Reset()
	it.mustApply(cfg)
	if w := it.counter.Writes(); w != 0 {
		t.Errorf("re-apply with hooks sent %d writes", w)
	}
}

// TestApply_ReadinessChecksSwitchedOff: disableDefault skips the default
// check of a Deployment that never becomes ready, and a custom check with
// disabled: true is not run; with neither, the same item times out.
func TestApply_ReadinessChecksSwitchedOff(t *testing.T) {
	ns := localcluster.Namespace(t)
	labels := map[string]any{"app": "never"}
	never := map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "never", "namespace": ns},
		"spec": map[string]any{"replicas": 1, "selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"nodeSelector": map[string]any{"nowhere": "true"}, "containers": []any{map[string]any{"name": "c", "image": "x"}}}}}}
	failing := map[string]any{"name": "off", "disabled": true,
		"resourceSelector": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "missing", "namespace": ns}},
		"requirements":     []any{map[string]any{"jsonPath": ".data.x", "operator": "exists"}}}
	objs := []map[string]any{entry("manage", never)}
	it := newItem(t, "checks-off")
	if _, err := it.apply(minute, config(t, objs, map[string]any{"readinessChecks": map[string]any{"disableDefault": true, "custom": []any{failing}}})); err != nil {
		t.Fatalf("with the checks switched off: %v", err)
	}
	if _, err := it.apply(2e9, config(t, objs, nil)); err == nil || !strings.Contains(err.Error(), "never") {
		t.Fatalf("with the default check: %v, want a timeout naming the Deployment", err)
	}
}
