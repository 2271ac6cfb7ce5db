package manifest

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestRequirementMet(t *testing.T) {
	obj := map[string]any{"status": map[string]any{"phase": "Running", "ready": int64(3), "conds": []any{map[string]any{"type": "A"}}}}
	for _, tc := range []struct {
		name, path, op string
		values         []string
		met            bool
	}{
		{"ExistsHolds", ".status.phase", "exists", nil, true},
		{"ExistsFails", ".status.missing", "exists", nil, false},
		{"NotExistsHolds", ".status.missing", "!", nil, true},
		{"NotExistsFails", ".status.phase", "!", nil, false},
		{"EqualsString", ".status.phase", "=", []string{`"Running"`}, true},
		{"DoubleEqualsNumber", ".status.ready", "==", []string{`3`}, true},
		{"EqualsFails", ".status.phase", "=", []string{`"Pending"`}, false},
		{"NotEquals", ".status.phase", "!=", []string{`"Pending"`}, true},
		{"In", ".status.phase", "in", []string{`"Pending"`, `"Running"`}, true},
		{"NotIn", ".status.phase", "notin", []string{`"Running"`}, false},
		// A missing value equals nothing, so != and notin hold.
		{"MissingNotIn", ".status.missing", "notin", []string{`"x"`}, true},
		{"Filter", `{.status.conds[?(@.type=="A")].type}`, "=", []string{`"A"`}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Requirement{JSONPath: tc.path, Operator: tc.op}
			for _, v := range tc.values {
				r.Values = append(r.Values, json.RawMessage(v))
			}
			if err := r.validate(); err != nil {
				t.Fatal(err)
			}
			why, err := r.met(obj)
			if err != nil {
				t.Fatal(err)
			}
			if (why == "") != tc.met {
				t.Fatalf("met = %q, want met=%v", why, tc.met)
			}
			if why != "" && !strings.Contains(why, tc.path) {
				t.Fatalf("reason %q does not name the path", why)
			}
		})
	}
}

func TestDefaultNotReady(t *testing.T) {
	for _, tc := range []struct {
		name, object, notReady string
	}{
		{"DeploymentReady", `{"kind":"Deployment","metadata":{"generation":2},"spec":{"replicas":2},"status":{"observedGeneration":2,"replicas":2,"updatedReplicas":2,"availableReplicas":2}}`, ""},
		{"DeploymentOldGeneration", `{"kind":"Deployment","metadata":{"generation":2},"spec":{"replicas":2},"status":{"observedGeneration":1}}`, "observedGeneration"},
		{"DeploymentUnavailable", `{"kind":"Deployment","metadata":{"generation":1},"spec":{"replicas":2},"status":{"observedGeneration":1,"replicas":2,"updatedReplicas":2,"availableReplicas":1}}`, "1/2 replicas available"},
		{"DeploymentOldReplicas", `{"kind":"Deployment","metadata":{"generation":1},"spec":{"replicas":1},"status":{"observedGeneration":1,"replicas":2,"updatedReplicas":1,"availableReplicas":1}}`, "old replicas"},
		{"DeploymentDefaultReplicas", `{"kind":"Deployment","metadata":{"generation":1},"spec":{},"status":{"observedGeneration":1}}`, "0/1"},
		{"PodRunningReady", `{"kind":"Pod","status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}]}}`, ""},
		{"PodPending", `{"kind":"Pod","status":{"phase":"Pending"}}`, "Pending"},
		{"PodSucceeded", `{"kind":"Pod","status":{"phase":"Succeeded"}}`, ""},
		{"StatefulSetNotReady", `{"kind":"StatefulSet","metadata":{"generation":1},"spec":{"replicas":3},"status":{"observedGeneration":1,"readyReplicas":2}}`, "2/3 replicas ready"},
		{"DaemonSetReady", `{"kind":"DaemonSet","metadata":{"generation":1},"status":{"observedGeneration":1,"desiredNumberScheduled":2,"numberReady":2,"updatedNumberScheduled":2}}`, ""},
		{"DaemonSetNotReady", `{"kind":"DaemonSet","metadata":{"generation":1},"status":{"observedGeneration":1,"desiredNumberScheduled":2,"numberReady":1}}`, "1/2 pods ready"},
		{"ReplicaSetNotReady", `{"kind":"ReplicaSet","metadata":{"generation":1},"spec":{"replicas":1},"status":{"observedGeneration":1}}`, "0/1"},
		{"ReplicationControllerReady", `{"kind":"ReplicationController","metadata":{"generation":1},"spec":{"replicas":1},"status":{"observedGeneration":1,"readyReplicas":1}}`, ""},
		// Kinds without a default check are ready once they exist.
		{"ConfigMap", `{"kind":"ConfigMap"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON([]byte(strings.Replace(tc.object, `{"kind"`, `{"apiVersion":"v1","kind"`, 1))); err != nil {
				t.Fatal(err)
			}
			got := defaultNotReady(u)
			if (tc.notReady == "") != (got == "") || !strings.Contains(got, tc.notReady) {
				t.Fatalf("defaultNotReady = %q, want %q", got, tc.notReady)
			}
		})
	}
}
