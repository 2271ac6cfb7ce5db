package manifest

import (
	"reflect"
	"testing"
)

func TestParseLeftPath(t *testing.T) {
	for p, want := range map[string][]any{
		".spec.replicas": {"spec", "replicas"},
		"spec.replicas":  nil, // must start with a field or key selector
		".spec.template.spec.containers[0].image": {"spec", "template", "spec", "containers", 0, "image"},
		".metadata.annotations['example.com/ca']": {"metadata", "annotations", "example.com/ca"},
		`.metadata.annotations["a.b"]`:            {"metadata", "annotations", "a.b"},
		".spec.containers[0]":                     nil, // a list element whole
		".metadata.name":                          nil,
		".metadata.labels":                        nil,
		".kind":                                   nil,
		"":                                        nil,
		".spec..x":                                nil,
		".metadata.annotations['unterminated":     nil,
		".metadata.labels['team']":                {"metadata", "labels", "team"},
		".spec.ports[-1].port":                    nil,
	} {
		got, err := parseLeftPath(p)
		if want == nil {
			if err == nil {
				t.Errorf("parseLeftPath(%q) = %v, want an error", p, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("parseLeftPath(%q) = %v, %v, want %v", p, got, err, want)
		}
	}
}

func TestLeaveToOthers_RemovesOnlyWhatItNames(t *testing.T) {
	obj := map[string]any{"spec": map[string]any{"replicas": int64(2), "template": map[string]any{"spec": map[string]any{
		"containers": []any{map[string]any{"name": "web", "image": "x:1"}}}}}}
	if err := leaveToOthers(obj, []string{".spec.replicas", ".spec.template.spec.containers[0].image", ".spec.template.spec.containers[3].image", ".status.x"}); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"spec": map[string]any{"template": map[string]any{"spec": map[string]any{
		"containers": []any{map[string]any{"name": "web"}}}}}}
	if !reflect.DeepEqual(obj, want) {
		t.Errorf("got %v, want %v", obj, want)
	}
}
