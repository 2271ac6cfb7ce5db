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

// TestDecodeExact: numbers keep their digits as json.Number, and a
// document followed by anything but whitespace is refused.
func TestDecodeExact(t *testing.T) {
	tests := []struct {
		name, in string
		want     any
		wantErr  bool
	}{
		{"BigInteger", `{"n":9007199254740993}`, map[string]any{"n": json.Number("9007199254740993")}, false},
		{"TrailingWhitespace", "[1.5]\n ", []any{json.Number("1.5")}, false},
		{"SecondDocument", `{"a":1} {"b":2}`, nil, true},
		{"TrailingGarbage", `1 x`, nil, true},
		{"Invalid", `{"a":`, nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got any
			err := DecodeExact([]byte(tt.in), &got)
			if (err != nil) != tt.wantErr {
				t.Fatalf("error %v, want error: %v", err, tt.wantErr)
			}
			if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
				t.Errorf("decoded %#v, want %#v", got, tt.want)
			}
		})
	}
}

// TestDecodeExact_AllowTrailing: with AllowTrailing the first document is
// decoded, numbers exact, and what follows it is ignored.
func TestDecodeExact_AllowTrailing(t *testing.T) {
	var got any
	if err := DecodeExact([]byte(`{"n":9007199254740993} {"b":2}`), &got, AllowTrailing); err != nil {
		t.Fatal(err)
	}
	if want := map[string]any{"n": json.Number("9007199254740993")}; !reflect.DeepEqual(got, want) {
		t.Errorf("decoded %#v, want %#v", got, want)
	}
	if err := DecodeExact([]byte(`{"a":`), &got, AllowTrailing); err == nil {
		t.Error("an invalid document was accepted")
	}
}
