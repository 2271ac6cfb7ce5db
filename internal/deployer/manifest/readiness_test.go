package manifest

import (
	"encoding/json"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestRequirementMet: requirements written as Landscaper documents them
// (values: [{value: …}]) hold or fail by every operator, decoded from
// the configuration's JSON.
func TestRequirementMet(t *testing.T) {
	obj := map[string]any{"status": map[string]any{
		"phase": "Running", "ready": int64(3), "flag": true, "conds": []any{map[string]any{"type": "A", "status": "True"}, map[string]any{"type": "B", "status": "False"}},
		"labels": map[string]any{"a": "1"},
	}}
	for _, tc := range []struct {
		name, path, op, values string
		met                    bool
	}{
		{"ExistsHolds", ".status.phase", "exists", ``, true},
		{"ExistsFails", ".status.missing", "exists", ``, false},
		{"NotExistsHolds", ".status.missing", "!", ``, true},
		{"NotExistsFails", ".status.phase", "!", ``, false},
		{"EqualsString", ".status.phase", "=", `[{"value":"Running"}]`, true},
		{"DoubleEqualsNumber", ".status.ready", "==", `[{"value":3}]`, true},
		{"EqualsBoolean", ".status.flag", "==", `[{"value":true}]`, true},
		// A string is not the boolean it spells.
		{"EqualsStringIsNotBoolean", ".status.flag", "==", `[{"value":"true"}]`, false},
		{"EqualsObject", ".status.labels", "=", `[{"value":{"a":"1"}}]`, true},
		// {value: null} is a value, as Landscaper reads it; no field is null here.
		{"NotEqualsNull", ".status.phase", "!=", `[{"value":null}]`, true},
		{"EqualsFails", ".status.phase", "=", `[{"value":"Pending"}]`, false},
		{"NotEquals", ".status.phase", "!=", `[{"value":"Pending"}]`, true},
		{"NotEqualsFails", ".status.phase", "!=", `[{"value":"Running"}]`, false},
		{"In", ".status.phase", "in", `[{"value":"Pending"},{"value":"Running"}]`, true},
		{"InFails", ".status.phase", "in", `[{"value":"Pending"}]`, false},
		{"NotIn", ".status.phase", "notin", `[{"value":"Pending"}]`, true},
		{"NotInFails", ".status.phase", "notin", `[{"value":"Running"}]`, false},
		// As in Landscaper, a path that selects nothing fails every
		// operator but "!", including != and notin.
		{"MissingNotEquals", ".status.missing", "!=", `[{"value":"x"}]`, false},
		{"MissingNotIn", ".status.missing", "notin", `[{"value":"x"}]`, false},
		// Several selected values: each must meet the operator.
		{"EachValueIn", ".status.conds[*].status", "in", `[{"value":"True"},{"value":"False"}]`, true},
		{"EachValueEquals", ".status.conds[*].status", "==", `[{"value":"True"}]`, false},
		{"Filter", `{.status.conds[?(@.type=="A")].status}`, "=", `[{"value":"True"}]`, true},
		// Landscaper's jsonPath may omit the leading dot.
		{"NoLeadingDot", "status.phase", "==", `[{"value":"Running"}]`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := `{"jsonPath":` + mustJSON(t, tc.path) + `,"operator":"` + tc.op + `"`
			if tc.values != "" {
				doc += `,"values":` + tc.values
			}
			var r Requirement
			if err := json.Unmarshal([]byte(doc+"}"), &r); err != nil {
				t.Fatal(err)
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

// TestRequirementValidate_LandscaperForm: an entry of values that is not
// {value: …} is refused naming the entry (Landscaper refuses it when it
// checks), and so are the counts Landscaper's validation refuses.
func TestRequirementValidate_LandscaperForm(t *testing.T) {
	for _, tc := range []struct{ name, doc, mention string }{
		{"BareString", `{"jsonPath":".a","operator":"==","values":["true"]}`, "values[0] is a string, not an object {value: …}"},
		{"BareNumber", `{"jsonPath":".a","operator":"in","values":[{"value":1},2]}`, "values[1] is a number"},
		{"Null", `{"jsonPath":".a","operator":"==","values":[null]}`, "values[0] is a null"},
		{"WithoutValue", `{"jsonPath":".a","operator":"==","values":[{"val":"x"}]}`, "values[0] is an object without the field value"},
		{"BareWithExists", `{"jsonPath":".a","operator":"exists","values":["x"]}`, "values[0] is a string"},
		{"TwoForEquals", `{"jsonPath":".a","operator":"==","values":[{"value":1},{"value":2}]}`, "exactly one"},
		{"TwoForExists", `{"jsonPath":".a","operator":"exists","values":[{"value":1},{"value":2}]}`, "at most one"},
		{"NoneForIn", `{"jsonPath":".a","operator":"in"}`, "needs values"},
		{"NoPath", `{"jsonPath":"","operator":"exists"}`, "jsonPath is required"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var r Requirement
			if err := json.Unmarshal([]byte(tc.doc), &r); err != nil {
				t.Fatal(err)
			}
			if err := r.validate(); err == nil || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("validate(%s) = %v, want an error mentioning %q", tc.doc, err, tc.mention)
			}
		})
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
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
