package manifest

import (
	"slices"
	"sort"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

func TestPredictFromObjects(t *testing.T) {
	svc := func(ns string, note string) deployer.PreviewObject {
		meta := map[string]any{"name": "web"}
		if ns != "" {
			meta["namespace"] = ns
		}
		return deployer.PreviewObject{Note: note, Object: map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": meta,
			"spec": map[string]any{"ports": []any{map[string]any{"port": int64(8080)}}, "type": "ClusterIP",
				"selector": map[string]any{"app": "web"}},
			"data": map[string]any{"cpu": "0.5", "mem": "1Gi", "gen": deployer.Generated}}}
	}
	ref := &ObjectRef{APIVersion: "v1", Kind: "Service", Name: "web", Namespace: "demo"}
	other := "other"
	exports := []Export{
		{Key: "port", JSONPath: ".spec.ports[0].port", FromResource: ref},
		{Key: "type", JSONPath: "{.spec.type}", FromResource: ref},
		{Key: "ip", JSONPath: ".spec.clusterIP", FromResource: ref},          // not rendered: the server allocates it
		{Key: "selector", JSONPath: ".spec.selector", FromResource: ref},     // a map: the server may add to it
		{Key: "uid", JSONPath: ".metadata.uid", FromResource: ref},           // the server's
		{Key: "status", JSONPath: ".status.loadBalancer", FromResource: ref}, // the server's
		{Key: "cpu", JSONPath: ".data.cpu", FromResource: ref},               // stored as 500m where it is a quantity
		{Key: "mem", JSONPath: ".data.mem", FromResource: ref},
		{Key: "gen", JSONPath: ".data.gen", FromResource: ref}, // generated at apply
		{Key: "elsewhere", JSONPath: ".spec.type", FromResource: ref, TargetName: &other},
		{Key: "missing", JSONPath: ".spec.type", FromResource: &ObjectRef{APIVersion: "v1", Kind: "Service", Name: "db", Namespace: "demo"}},
	}
	check := func(t *testing.T, got deployer.PredictedExports, known map[string]any) {
		t.Helper()
		for k, v := range known {
			if got.Known[k] != v {
				t.Errorf("export %s = %v (known %v), want %v", k, got.Known[k], got.Known, v)
			}
		}
		if len(got.Known) != len(known) {
			t.Errorf("known %v, want exactly %v", got.Known, known)
		}
		var all []string
		for k := range got.Known {
			all = append(all, k)
		}
		all = append(all, got.Unknown...)
		sort.Strings(all)
		if len(all) != len(exports) || len(slices.Compact(slices.Clone(all))) != len(all) {
			t.Errorf("every export must be known or unknown once: %v", all)
		}
	}
	want := map[string]any{"port": int64(8080), "type": "ClusterIP", "mem": "1Gi"}
	check(t, PredictFromObjects(exports, "", []deployer.PreviewObject{svc("demo", "")}, nil), want)
	// A Helm release's objects without a namespace are in the release's.
	check(t, PredictFromObjects(exports, "demo", []deployer.PreviewObject{svc("", "")}, nil), want)
	check(t, PredictFromObjects(exports, "", []deployer.PreviewObject{svc("", "")}, nil), map[string]any{})
	// An object that may keep the cluster's version tells nothing.
	check(t, PredictFromObjects(exports, "", []deployer.PreviewObject{svc("demo", "policy: immutable (created, never updated)")}, nil), map[string]any{})
	// A Secret's values are masked in the plan: its exports stay unknown.
	secret := svc("demo", "")
	secret.Object["kind"] = "Secret"
	secretRef := &ObjectRef{APIVersion: "v1", Kind: "Secret", Name: "web", Namespace: "demo"}
	if got := PredictFromObjects([]Export{{Key: "mem", JSONPath: ".data.mem", FromResource: secretRef}}, "", []deployer.PreviewObject{secret}, nil); len(got.Known) != 0 {
		t.Errorf("a Secret's export is predicted: %v", got.Known)
	}
	// With a dry-run the value is the server's, where the rendering sets it.
	served := svc("demo", "")
	served.Object["spec"].(map[string]any)["type"] = "NodePort"
	served.Object["spec"].(map[string]any)["clusterIP"] = "10.0.0.9"
	check(t, PredictFromObjects(exports, "", []deployer.PreviewObject{svc("demo", "")}, []deployer.PreviewObject{served}),
		map[string]any{"port": int64(8080), "type": "NodePort", "mem": "1Gi"})
}
