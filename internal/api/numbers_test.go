package api

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestMapNumbers_ExactNumber: every number in nested maps and lists takes
// the engine's form: int64, beyond int64 its digits, else float64.
func TestMapNumbers_ExactNumber(t *testing.T) {
	v := map[string]any{"a": json.Number("9007199254740993"), "l": []any{json.Number("18446744073709551617"), json.Number("0.5"), "s"},
		"huge": json.Number("1e999")}
	got := MapNumbers(v, ExactNumber)
	want := map[string]any{"a": int64(9007199254740993), "l": []any{json.Number("18446744073709551617"), 0.5, "s"},
		"huge": json.Number("1e999")}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MapNumbers = %#v, want %#v", got, want)
	}
	if n := MapNumbers(json.Number("7"), ExactNumber); n != int64(7) {
		t.Errorf("a bare number: %#v", n)
	}
}
