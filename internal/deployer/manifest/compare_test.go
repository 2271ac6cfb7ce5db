package manifest

import (
	"encoding/json"
	"reflect"
	"testing"
)

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestFirstDifference(t *testing.T) {
	for _, tc := range []struct {
		name, want, have, diff string
	}{
		// Fields only in the live object (defaults, status) are not differences.
		{"ExtraLiveFields", `{"a":"1"}`, `{"a":"1","b":"2","status":{}}`, ""},
		{"ChangedValue", `{"data":{"a":"1"}}`, `{"data":{"a":"2"}}`, ".data.a"},
		{"MissingField", `{"data":{"a":"1"}}`, `{"data":{}}`, ".data.a"},
		// Quantities compare by amount.
		{"QuantityNormalised", `{"cpu":"1000m","mem":"1Gi"}`, `{"cpu":"1","mem":"1024Mi"}`, ""},
		// Numbers compare by value, whatever their Go type.
		{"NumberTypes", `{"replicas":2}`, `{"replicas":2}`, ""},
		{"ListLength", `{"l":[1,2]}`, `{"l":[1]}`, ".l"},
		{"ListElementSubset", `{"l":[{"name":"a"}]}`, `{"l":[{"name":"a","protocol":"TCP"}]}`, ""},
		// Empty maps and lists are dropped by the API server.
		{"EmptyMapMatchesAbsent", `{"annotations":{}}`, `{}`, ""},
		{"NullIgnored", `{"x":null}`, `{"x":"1"}`, ""},
		// Zero values are stored by omission (omitempty): a chart's
		// hostNetwork: false, minReadySeconds: 0, a "" or a map of them.
		{"FalseMatchesAbsent", `{"spec":{"hostNetwork":false,"hostIPC":false}}`, `{"spec":{}}`, ""},
		{"ZeroMatchesAbsent", `{"spec":{"minReadySeconds":0,"probe":{"initialDelaySeconds":0,"periodSeconds":10}}}`, `{"spec":{"probe":{"periodSeconds":10}}}`, ""},
		{"EmptyStringMatchesAbsent", `{"spec":{"subdomain":""}}`, `{"spec":{}}`, ""},
		{"EmptyListMatchesAbsent", `{"spec":{"tolerations":[]}}`, `{"spec":{}}`, ""},
		{"MapOfZerosMatchesAbsent", `{"spec":{"securityContext":{"runAsNonRoot":false,"seLinuxOptions":{}}}}`, `{"spec":{}}`, ""},
		// ... but only where the field is absent: a zero against a value,
		// or a value against nothing, is a difference.
		{"FalseAgainstTrue", `{"spec":{"hostNetwork":false}}`, `{"spec":{"hostNetwork":true}}`, ".spec.hostNetwork"},
		{"ZeroAgainstValue", `{"spec":{"replicas":0}}`, `{"spec":{"replicas":3}}`, ".spec.replicas"},
		{"TrueAgainstAbsent", `{"spec":{"hostNetwork":true}}`, `{"spec":{}}`, ".spec.hostNetwork"},
		{"ListOfZerosAgainstAbsent", `{"spec":{"args":[""]}}`, `{"spec":{}}`, ".spec.args"},
		// Free-key maps keep their "" entries: a removed one is a change.
		{"EmptyAnnotationRemoved", `{"metadata":{"annotations":{"a":""}}}`, `{"metadata":{"annotations":{}}}`, ".metadata.annotations.a"},
		{"EmptyTemplateLabelRemoved", `{"spec":{"template":{"metadata":{"labels":{"a":""}}}}}`, `{"spec":{"template":{"metadata":{}}}}`, ".spec.template.metadata.labels"},
		{"EmptyDataKeyRemoved", `{"data":{"a":""}}`, `{"data":{"b":"x"}}`, ".data.a"},
		{"EmptyDataKeyKept", `{"data":{"a":""}}`, `{"data":{"a":""}}`, ""},
		// Quantities written as numbers are stored as canonical strings.
		{"QuantityFromNumber", `{"cpu":1,"mem":1073741824,"half":0.5}`, `{"cpu":"1","mem":"1Gi","half":"500m"}`, ""},
		{"QuantityFromNumberChanged", `{"cpu":2}`, `{"cpu":"1"}`, ".cpu"},
		// int-or-string: a port or percentage kept as written.
		{"IntOrStringNumberAsString", `{"targetPort":"8080"}`, `{"targetPort":8080}`, ""},
		{"IntOrStringName", `{"targetPort":"http"}`, `{"targetPort":"metrics"}`, ".targetPort"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			have := decode(t, tc.have)
			if tc.name == "NumberTypes" {
				have["replicas"] = int64(2)
			}
			if got := firstDifference(decode(t, tc.want), have); got != tc.diff {
				t.Fatalf("firstDifference = %q, want %q", got, tc.diff)
			}
		})
	}
}

// TestKeepExisting: the merge strategy keeps values in the cluster and adds missing ones.
func TestKeepExisting(t *testing.T) {
	got := keepExisting(decode(t, `{"data":{"a":"manifest","b":"new"},"kind":"ConfigMap"}`), decode(t, `{"data":{"a":"live"},"kind":"ConfigMap","extra":1}`))
	want := decode(t, `{"data":{"a":"live","b":"new"},"kind":"ConfigMap"}`)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("keepExisting = %v, want %v", got, want)
	}
}

// TestMergePatch: RFC 7386 semantics, null removes, the input is not modified.
func TestMergePatch(t *testing.T) {
	obj := decode(t, `{"a":{"b":1,"c":2},"d":3}`)
	got := mergePatch(obj, decode(t, `{"a":{"b":null,"e":4},"d":[1]}`))
	if want := decode(t, `{"a":{"c":2,"e":4},"d":[1]}`); !reflect.DeepEqual(got, want) {
		t.Fatalf("mergePatch = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(obj, decode(t, `{"a":{"b":1,"c":2},"d":3}`)) {
		t.Fatal("mergePatch modified its input")
	}
}

// TestDeletePatches: annotations, the user's patch and finalizer removal, in that order.
func TestDeletePatches(t *testing.T) {
	got := deletePatches(ManagedResource{AnnotateBeforeDelete: map[string]string{"k": "v"}, PatchBeforeDelete: json.RawMessage(`{"data":{}}`)}, true)
	want := []string{`{"metadata":{"annotations":{"k":"v"}}}`, `{"data":{}}`, `{"metadata":{"finalizers":null}}`}
	if len(got) != len(want) {
		t.Fatalf("got %d patches, want %d", len(got), len(want))
	}
	for i := range want {
		if string(got[i]) != want[i] {
			t.Errorf("patch %d = %s, want %s", i, got[i], want[i])
		}
	}
}

// TestObjectDifference: what a write of the object cannot set (status) is
// not compared, and a Secret's stringData is compared as the data the
// server turns it into.
func TestObjectDifference(t *testing.T) {
	for _, tc := range []struct {
		name, want, have, diff string
	}{
		{"StatusIgnored", `{"kind":"Deployment","spec":{"replicas":1},"status":{"replicas":0}}`, `{"kind":"Deployment","spec":{"replicas":1},"status":{"replicas":1}}`, ""},
		{"StringDataAsData", `{"kind":"Secret","stringData":{"pw":"hunter2"},"data":{"k":"dg=="}}`, `{"kind":"Secret","data":{"k":"dg==","pw":"aHVudGVyMg=="}}`, ""},
		{"StringDataChanged", `{"kind":"Secret","stringData":{"pw":"hunter2"}}`, `{"kind":"Secret","data":{"pw":"b3RoZXI="}}`, ".data.pw"},
		{"StringDataOnlyForSecrets", `{"kind":"Custom","stringData":{"a":"b"}}`, `{"kind":"Custom","data":{"a":"Yg=="}}`, ".stringData"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := decode(t, tc.want)
			got := ""
			if p, found := objectDifference(want, decode(t, tc.have)); found {
				got = p.String()
			}
			if got != tc.diff {
				t.Fatalf("objectDifference = %q, want %q", got, tc.diff)
			}
			if _, ok := want["status"]; tc.name == "StatusIgnored" && !ok {
				t.Fatal("objectDifference modified its input")
			}
		})
	}
}
