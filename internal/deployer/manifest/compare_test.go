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
	} {
		t.Run(tc.name, func(t *testing.T) {
			have := decode(t, tc.have)
			if tc.name == "NumberTypes" {
				have["replicas"] = int64(2)
			}
			if got := firstDifference("", decode(t, tc.want), have); got != tc.diff {
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
