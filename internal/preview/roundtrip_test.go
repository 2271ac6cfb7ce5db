package preview

import (
	"encoding/json"
	"reflect"
	"testing"
	"unicode/utf8"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// yaml11Strings are strings a YAML 1.1 reader takes for booleans, nulls
// or numbers when they are written plain, and strings that only look
// like such.
var yaml11Strings = []string{
	"Off", "off", "OFF", "On", "on", "yes", "Yes", "YES", "no", "No", "NO", "y", "Y", "n", "N",
	"true", "True", "FALSE", "~", "null", "Null", "NULL", "",
	"1e3", "1E3", "0x1F", "012", "0755", "0o17", "0b101", "1_000", ".5", "+1", "-1", "1.", "-.5", ".inf", "-.Inf", ".NaN", "190:20:30",
	"<<", "=", "-", "- x", "1:2", "12:30", "2001-12-14", "1.2.3", "0.1.0-rc.1", "v1", "offset", "yesterday", "nginx:1.27", "none", "On Call",
}

// TestCanonical_ParsesBackToTheObject: every canonical text, read back by
// Kubernetes' YAML reader (YAML 1.1), is the object it was made from —
// for strings in values, in keys, in lists and in annotations. Before,
// `Off` and `y` were printed plain and read back as false and true.
func TestCanonical_ParsesBackToTheObject(t *testing.T) {
	data, list, annotations := map[string]any{}, []any{}, map[string]any{}
	for _, s := range yaml11Strings {
		data["k"+s] = s
		data[s] = "as a key"
		list = append(list, s)
		annotations["example.com/"+s] = s
	}
	obj := map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "cm", "namespace": "ns", "annotations": annotations},
		"data":     data,
		"spec":     map[string]any{"list": list, "multi": "a: Off\nb: yes\n", "n": 3, "f": 1.5, "b": false, "z": nil},
	}
	assertRoundTrip(t, obj)
	assertRoundTrip(t, deployment(3).Object)
}

// FuzzCanonical_ParsesBackToTheObject: any string, as a value and as a
// key, reads back as itself.
func FuzzCanonical_ParsesBackToTheObject(f *testing.F) {
	for _, s := range yaml11Strings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			t.Skip() // objects are JSON: their strings are UTF-8
		}
		assertRoundTrip(t, map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cm"},
			"data": map[string]any{"v": s, "x" + s: "k"}, "list": []any{s},
		})
	})
}

func assertRoundTrip(t *testing.T, obj map[string]any) {
	t.Helper()
	texts, err := NewRenderer(nil, nil).Item("root/x", []deployer.PreviewObject{{Object: obj}})
	if err != nil {
		t.Fatal(err)
	}
	want := viaJSON(t, obj)
	for key, text := range texts {
		if len(text) > MaxObjectText {
			continue
		}
		var got map[string]any
		if err := yaml.Unmarshal([]byte(text), &got); err != nil {
			t.Fatalf("%s: the canonical text does not parse: %v\n%s", key, err, text)
		}
		if !reflect.DeepEqual(viaJSON(t, got), want) {
			t.Fatalf("%s: the canonical text reads back as\n%v\nwant\n%v\ntext:\n%s", key, got, want, text)
		}
	}
}

func viaJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
