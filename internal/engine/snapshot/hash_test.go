package snapshot

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// HashEncoded must agree with Hash on everything json.Marshal writes from
// a decoded value, or every item rendered after an upgrade would look
// changed to a plan and be applied again.
func TestHashEncoded(t *testing.T) {
	values := []any{
		map[string]any{"b": int64(1), "a": []any{"x", nil, true}},
		map[string]any{"html": "<a href='x'>&</a>", "unicode": "ü\u2028\u2029✓", "bad": "\xff\xfe"},
		map[string]any{"big": json.Number("123456789012345678901234567890"), "neg": int64(math.MinInt64)},
		map[string]any{"f": 1.5, "e": 1e21, "small": 1e-7, "whole": float64(3), "max": math.MaxFloat64},
		map[string]any{"nested": map[string]any{"z": map[string]any{}, "y": []any{}}},
		map[string]any{"manifests": []any{map[string]any{"policy": "manage", "manifest": map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": "v\n\t\"q\""}}}}},
		"just a string", int64(42), []any{int64(1), 2.25},
	}
	for _, v := range values {
		raw, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := HashEncoded(raw), Hash(json.RawMessage(raw)); got != want {
			t.Errorf("HashEncoded(%s) = %s, Hash = %s", raw, got, want)
		}
	}
	if got, want := HashEncoded(nil), Hash(json.RawMessage(nil)); got != want {
		t.Errorf("no config: HashEncoded = %s, Hash = %s", got, want)
	}
}

// FuzzHashEncoded decodes arbitrary JSON as rendering holds values (exact
// numbers), encodes it as rendering does, and requires both hashes to agree.
func FuzzHashEncoded(f *testing.F) {
	for _, s := range []string{`{"a":1,"b":[1.5,"<x>"]}`, `{"n":1e400,"i":-0,"u":"\u00e9"}`,
		`[18446744073709551616, 0.1, 1E+2, {"":null}]`, `"\ud800"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		var v any
		if api.DecodeExact(in, &v) != nil {
			return
		}
		v = api.MapNumbers(v, api.ExactNumber)
		raw, err := json.Marshal(v)
		if err != nil {
			return // rendering fails the item then
		}
		if got, want := HashEncoded(raw), Hash(json.RawMessage(raw)); got != want {
			t.Fatalf("HashEncoded(%s) = %s, Hash = %s", raw, got, want)
		}
	})
}
