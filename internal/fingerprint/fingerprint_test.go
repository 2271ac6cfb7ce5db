package fingerprint

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Data without a write-only form hashes as before this package existed
// (snapshot.Hash, snapshot.HashEncoded, preview.Marks' and config_hash's
// HMACs at the commit before it): otherwise every state would plan a
// change after an upgrade. The sums are those the old code gave.
func TestUnchangedWithoutWriteOnly(t *testing.T) {
	cfg := json.RawMessage(`{"manifests":[{"manifest":{"apiVersion":"v1","data":{"token":"plain-value"},"kind":"ConfigMap"},"policy":"manage"}]}`)
	key := []byte(strings.Repeat("k", 32))
	for _, f := range []Forms{nil, {"other-write-only"}} {
		for name, c := range map[string]struct{ got, want string }{
			"Value":            {Value(map[string]any{"b": int64(1), "a": []any{"x", nil, true}}, f), "8ceb0641e6e1c1616fb86a8f375f277d"},
			"Encoded":          {Encoded(cfg, f), "d307e65a6e0ff7d8bace7e79c306285d"},
			"Encoded(nil)":     {Encoded(nil, f), "74234e98afe7498fb5daf1f36ac2d78a"},
			"Keyed mark":       {Keyed(key, f, "loc", "value"), "e8c6992c9ec7354add89a604fe4f4c58"},
			"Keyed confighash": {Keyed(key, f, "0123abcd"), "d948357ea991a548ffe78efcde347a5a"},
		} {
			if c.got != c.want {
				t.Errorf("forms %q: %s = %s, was %s", f, name, c.got, c.want)
			}
		}
	}
}

// formsOf are the forms the redaction registry registers for v
// (redact.textForms: itself, base64, JSON-escaped when it differs).
func formsOf(v string) Forms {
	f := Forms{v, base64.StdEncoding.EncodeToString([]byte(v))}
	if q, _ := json.Marshal(v); string(q[1:len(q)-1]) != v {
		f = append(f, string(q[1:len(q)-1]))
	}
	return f
}

// Every form of a write-only value is the marker, wherever it stands (a
// value, inside a longer string, base64 in a Secret's data, escaped, a
// key, a number): two values give the same fingerprint, which is the
// hash of the data with the marker written in.
func TestMarkerSubstitution(t *testing.T) {
	cfg := func(v string) json.RawMessage {
		b64 := base64.StdEncoding.EncodeToString([]byte(v))
		m := map[string]any{"data": map[string]any{"token": v, "url": "https://u:" + v + "@h/", v: "as a key"},
			"secret": map[string]any{"token": b64}}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	one, two := "value-one", `value-"two"`
	f1, f2 := formsOf(one), formsOf(two)
	if !f1.Held(cfg(one)) || !f2.Held(cfg(two)) || f1.Held(cfg(two)) {
		t.Fatal("Held does not find the forms")
	}
	marked := json.RawMessage(strings.NewReplacer(one, Marker, base64.StdEncoding.EncodeToString([]byte(one)), Marker).Replace(string(cfg(one))))
	want := Value(marked, nil) // re-encoded: the marker sorts elsewhere among keys
	for _, got := range []string{Encoded(cfg(one), f1), Encoded(cfg(two), f2), Value(cfg(one), f1), Value(cfg(two), f2)} {
		if got != want {
			t.Errorf("fingerprint %s, want %s (that of the marked data)", got, want)
		}
	}
	if Encoded(cfg(one), nil) == want || Encoded(cfg(one), nil) == Encoded(cfg(two), nil) {
		t.Error("without forms the value is hashed: the test data is wrong")
	}
	// A number that renders a write-only string (a template without quotes).
	n1, _ := json.Marshal(map[string]any{"port": json.Number("4711")})
	n2, _ := json.Marshal(map[string]any{"port": json.Number("4812")})
	if Encoded(n1, Forms{"4711"}) != Encoded(n2, Forms{"4812"}) {
		t.Error("a number holding a write-only form is hashed by its digits")
	}
	key := []byte("key")
	if Keyed(key, f1, "loc", "x "+one) != Keyed(key, f2, "loc", "x "+two) || Keyed(key, f1, "loc", one) == Keyed(key, f1, "loc2", one) {
		t.Error("Keyed depends on the write-only value, or not on the location")
	}
	if !f1.HeldIn("a "+one) || f1.HeldIn("value-on") {
		t.Error("HeldIn")
	}
}

// Encoded must agree with Value on everything json.Marshal writes from
// a decoded value, with and without forms, or every item rendered after
// an upgrade would look changed to a plan and be applied again.
func TestEncoded(t *testing.T) {
	values := []any{
		map[string]any{"b": int64(1), "a": []any{"x", nil, true}},
		map[string]any{"html": "<a href='x'>&</a>", "unicode": "ü\u2028\u2029✓", "bad": "\xff\xfe"},
		map[string]any{"big": json.Number("123456789012345678901234567890"), "neg": int64(math.MinInt64)},
		map[string]any{"f": 1.5, "e": 1e21, "small": 1e-7, "whole": float64(3), "max": math.MaxFloat64},
		map[string]any{"nested": map[string]any{"z": map[string]any{}, "y": []any{}}},
		map[string]any{"manifests": []any{map[string]any{"policy": "manage", "manifest": map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"k": "v\n\t\"q\" <secret-wo>"}}}}},
		"just a string", int64(42), []any{int64(1), 2.25},
	}
	for _, f := range []Forms{nil, formsOf("<secret-wo>")} {
		for _, v := range values {
			raw, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := Encoded(raw, f), Value(json.RawMessage(raw), f); got != want {
				t.Errorf("Encoded(%s) = %s, Value = %s", raw, got, want)
			}
		}
	}
}

// FuzzEncoded decodes arbitrary JSON as rendering holds values (exact
// numbers), encodes it as rendering does, and requires both hashes to agree.
func FuzzEncoded(f *testing.F) {
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
		if got, want := Encoded(raw, nil), Value(json.RawMessage(raw), nil); got != want {
			t.Fatalf("Encoded(%s) = %s, Value = %s", raw, got, want)
		}
	})
}
