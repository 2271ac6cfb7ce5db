package template

import (
	"encoding/json"
	"reflect"
	"testing"
)

// templateNumbers converts json.Number without touching its input (the
// engine shares import values between executions) and copies only what
// holds a number to convert.
func TestTemplateNumbers_copiesOnlyWhatChanges(t *testing.T) {
	plain := map[string]any{"s": "x", "i": int64(1)}
	in := map[string]any{"plain": plain, "l": []any{json.Number("9007199254740993"), "y"}, "f": json.Number("1.5"),
		"huge": json.Number("18446744073709551615")}
	out, changed := templateNumbers(in)
	if !changed {
		t.Fatal("nothing changed")
	}
	want := map[string]any{"plain": plain, "l": []any{int64(9007199254740993), "y"}, "f": 1.5,
		"huge": json.Number("18446744073709551615")}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("got %#v", out)
	}
	if in["l"].([]any)[0] != json.Number("9007199254740993") || in["f"] != json.Number("1.5") {
		t.Errorf("the input was modified: %#v", in)
	}
	if got, changed := templateNumbers(plain); changed || reflect.ValueOf(got).UnsafePointer() != reflect.ValueOf(plain).UnsafePointer() {
		t.Error("a map without json.Number was copied")
	}
}
