// Package fingerprint is the one place a stored hash or mark of
// configuration data is made: deploy item config hashes and their keyed
// config_hash, imports hashes, preview marks, deployers' status hashes.
// Each takes the write-only forms (imports.data_wo, Forms) and hashes the
// data with every occurrence of one replaced by Marker, so what is stored
// is the same whatever the write-only value is: a short write-only value
// cannot be guessed offline from state, private state or an inventory.
// Data without a write-only form hashes as it always did, so existing
// states plan no change. TestFingerprints_OnlyHere
// (fingerprint_guard_test.go) fails on a hash made elsewhere.
package fingerprint

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Marker stands in the hashed data for a write-only form. It is the
// snapshot's mask (snapshot.WriteOnlyMask), so the fingerprint of a real
// configuration is the hash of its masked copy in private state.
const Marker = "(write-only)"

// Forms are the texts a write-only value may stand in, as the redaction
// registry knows them (redact.WriteOnlyForms: the value, its base64, its
// JSON-escaped form), longest first so a form containing another is
// replaced whole. nil: none.
type Forms []string

// Held reports whether a form occurs in the JSON text raw (escaped as
// JSON strings escape it): the data cannot be compared by its hash.
func (f Forms) Held(raw []byte) bool {
	for _, form := range f {
		enc, _ := json.Marshal(form) // a string always encodes
		if bytes.Contains(raw, enc[1:len(enc)-1]) {
			return true
		}
	}
	return false
}

// HeldIn reports whether a form occurs in the text s.
func (f Forms) HeldIn(s string) bool {
	for _, form := range f {
		if strings.Contains(s, form) {
			return true
		}
	}
	return false
}

// text replaces every form in s with Marker.
func (f Forms) text(s string) string {
	for _, form := range f {
		if strings.Contains(s, form) {
			s = strings.ReplaceAll(s, form, Marker)
		}
	}
	return s
}

// Value is a short, stable hash of a JSON-encodable value (the first 128
// bits of SHA-256 in hex): map keys are sorted by encoding/json and raw
// JSON is re-encoded, so key order and whitespace do not change it;
// numbers keep their digits (api.DecodeExact). Every form of f inside a
// string (keys too) is Marker first.
func Value(v any, f Forms) string {
	if raw, ok := v.(json.RawMessage); ok {
		var decoded any
		if len(raw) > 0 && api.DecodeExact(raw, &decoded) == nil {
			v = decoded
		}
	}
	b, err := json.Marshal(v)
	if err != nil {
		b = []byte(fmt.Sprintf("%#v", v))
	} else if f.Held(b) {
		b = f.masked(b)
	}
	return short(sha256.Sum256(b))
}

// Encoded is Value(raw, f) for raw that json.Marshal wrote from a decoded
// value, as a rendered deploy item's config is: its keys are sorted, it
// is compact and its numbers are as api.DecodeExact reads them back, so
// without a write-only form it is hashed as it is (the round trip was a
// fifth of the rendering of 1,000 items). TestEncoded holds it to Value.
func Encoded(raw json.RawMessage, f Forms) string {
	// No config is hashed as null. json.Marshal writes invalid UTF-8 as
	// the escape \ufffd but U+FFFD itself unescaped, so such text is not
	// a fixed point: hash it the long way (a literal `\\ufffd` matches
	// too, which only costs time).
	if len(raw) == 0 || bytes.Contains(raw, []byte(`\ufffd`)) || f.Held(raw) {
		return Value(raw, f)
	}
	return short(sha256.Sum256(raw))
}

// Keyed is the first 128 bits in hex of HMAC-SHA256 under key of parts
// joined by a zero byte, each with every form of f as Marker.
func Keyed(key []byte, f Forms, parts ...string) string {
	h := hmac.New(sha256.New, key)
	for i, p := range parts {
		if i > 0 {
			h.Write([]byte{0})
		}
		h.Write([]byte(f.text(p)))
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

func short(sum [sha256.Size]byte) string { return hex.EncodeToString(sum[:16]) }

// Mask is the JSON document raw with every form of f inside a string
// (keys too) replaced by Marker: what is hashed, for a record that keeps
// the data itself (the inventory's item configurations). raw is returned
// as it is when it holds no form or is no JSON.
func (f Forms) Mask(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || !f.Held(raw) {
		return raw
	}
	var v any
	if api.DecodeExact(raw, &v) != nil {
		return raw
	}
	out, err := json.Marshal(f.value(v))
	if err != nil {
		return raw
	}
	return out
}

// masked is the JSON document b (from json.Marshal) with every form
// masked (Mask); text that does not decode has its forms replaced as text.
func (f Forms) masked(b []byte) []byte {
	if out := f.Mask(b); !bytes.Equal(out, b) {
		return out
	}
	return []byte(f.text(string(b)))
}

func (f Forms) value(v any) any {
	switch x := v.(type) {
	case string:
		return f.text(x)
	case json.Number:
		if f.HeldIn(string(x)) {
			return Marker
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[f.text(k)] = f.value(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = f.value(e)
		}
		return out
	}
	return v
}
