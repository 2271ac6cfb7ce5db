package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"sort"
	"strings"
)

// The registry's forms: a secret string is looked for as itself, in
// base64 (a Secret manifest's data, a values file embedded as base64) and
// as a JSON string quotes it (a secret holding a quote, a backslash or a
// line break appears escaped in every JSON document and in many errors).
func textForms(v string) []string {
	forms := []string{v, base64.StdEncoding.EncodeToString([]byte(v))}
	if q, err := json.Marshal(v); err == nil {
		if inner := string(q[1 : len(q)-1]); inner != v {
			forms = append(forms, inner)
		}
	}
	return forms
}

// AddWriteOnly registers write-only values (imports.data_wo): secrets like
// the others, and also masked where other secrets are kept on purpose —
// the snapshot in private state and in the inventory (WriteOnly). Strings
// of at least minSecret bytes and numbers in their text forms are taken,
// as AddValue takes them.
func (s *Secrets) AddWriteOnly(v any) {
	var values []string
	collect(v, func(x string) { values = append(values, x) })
	s.Add(values...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.writeOnly == nil {
		s.writeOnly = map[string]bool{}
	}
	for _, x := range values {
		for _, f := range textForms(x) {
			s.writeOnly[f] = true
		}
	}
}

// WriteOnlyForms are the forms AddWriteOnly registers for v, longest
// first: one installation's write-only forms, which its fingerprints
// replace (package fingerprint) — its own, so that its hashes do not
// depend on what else the provider registered before.
func WriteOnlyForms(v any) []string {
	set := map[string]bool{}
	collect(v, func(x string) {
		for _, f := range textForms(x) {
			set[f] = true
		}
	})
	return longestFirst(set)
}

// collect calls f for every string and number form inside v.
func collect(v any, f func(string)) {
	switch x := v.(type) {
	case nil, bool:
	case string:
		if len(x) >= minSecret {
			f(x)
		}
	case map[string]any:
		for _, e := range x {
			collect(e, f)
		}
	case []any:
		for _, e := range x {
			collect(e, f)
		}
	default:
		if forms, ok := scalarForms(v); ok {
			for _, form := range forms {
				if len(form) >= minSecret {
					f(form)
				}
			}
		}
	}
}

// WriteOnly returns the registered write-only forms, longest first.
func (s *Secrets) WriteOnly() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return longestFirst(s.writeOnly)
}

// longestFirst are the keys of set, longest first (then in order), so
// a form containing another is replaced whole.
func longestFirst(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i] < out[j]
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// AddValueAt is AddValue for a value that sits at name (a Secret import's
// name): its booleans are registered too, by the key path that leads to
// them (BoolPaths). A boolean cannot be masked by its value — every
// "true" would go — so it is masked where a field's key path ends with
// the same keys (BoolAt).
func (s *Secrets) AddValueAt(name string, v any) {
	s.AddValue(v)
	var paths [][]string
	var walk func(any, []string)
	walk = func(v any, at []string) {
		switch x := v.(type) {
		case bool:
			paths = append(paths, boolKey(at))
		case map[string]any:
			for k, e := range x {
				walk(e, append(at[:len(at):len(at)], k))
			}
		case []any:
			for _, e := range x {
				walk(e, at) // list positions are no keys: a field is named, not counted
			}
		}
	}
	walk(v, []string{name})
	if len(paths) == 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range paths {
		if !containsPath(s.bools, p) {
			s.bools = append(s.bools, p)
		}
	}
}

// boolKeyLen is how many trailing keys identify a sensitive boolean: its
// own key and its parent's (`tls.enabled`, not every `enabled`); a
// boolean import as a whole is identified by the import's name.
const boolKeyLen = 2

func boolKey(at []string) []string {
	if len(at) > boolKeyLen {
		at = at[len(at)-boolKeyLen:]
	}
	return append([]string(nil), at...)
}

func containsPath(paths [][]string, p []string) bool {
	for _, q := range paths {
		if strings.Join(q, "\x00") == strings.Join(p, "\x00") {
			return true
		}
	}
	return false
}

// BoolPaths returns the key paths of the sensitive booleans.
func (s *Secrets) BoolPaths() [][]string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([][]string, len(s.bools))
	for i, p := range s.bools {
		out[i] = append([]string(nil), p...)
	}
	return out
}

// BoolAt says whether a boolean at the key path keys (list positions left
// out) carries a sensitive boolean: keys ends with a registered path.
func BoolAt(paths [][]string, keys []string) bool {
	for _, p := range paths {
		if len(p) <= len(keys) && strings.Join(keys[len(keys)-len(p):], "\x00") == strings.Join(p, "\x00") {
			return true
		}
	}
	return false
}

// Data masks, in a value the provider writes into an attribute or a
// document (not a message), every registered secret and the password of
// every URL. Unlike String it leaves query strings and the values other
// programs' errors quote: in data they are what the user wrote.
func (s *Secrets) Data(v string) string {
	if s != nil {
		s.mu.RLock()
		for _, secret := range s.sorted {
			if strings.Contains(v, secret) {
				v = strings.ReplaceAll(v, secret, Mask)
			}
		}
		s.mu.RUnlock()
	}
	return URLPasswords(v)
}

// MaskJSON replaces, in every string of the JSON document raw (keys too),
// each of forms with mask. raw is decoded and encoded again only when a
// form occurs in its text (escaped as JSON strings escape it); what is no
// JSON, or holds no form, is returned as it is.
func MaskJSON(raw []byte, forms []string, mask string) []byte {
	if len(raw) == 0 || len(forms) == 0 || !occursInJSON(raw, forms) {
		return raw
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return raw
	}
	out, err := json.Marshal(maskStrings(v, func(s string) string {
		for _, f := range forms {
			if strings.Contains(s, f) {
				s = strings.ReplaceAll(s, f, mask)
			}
		}
		return s
	}))
	if err != nil {
		return raw
	}
	return out
}

func occursInJSON(raw []byte, forms []string) bool {
	for _, f := range forms {
		enc, _ := json.Marshal(f) // a string always encodes
		if bytes.Contains(raw, enc[1:len(enc)-1]) {
			return true
		}
	}
	return false
}

// maskStrings applies f to every string inside v, map keys included.
func maskStrings(v any, f func(string) string) any {
	switch x := v.(type) {
	case string:
		return f(x)
	case json.Number:
		if m := f(string(x)); m != string(x) {
			return m // a number holding a secret goes whole, as a string
		}
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[f(k)] = maskStrings(e, f)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = maskStrings(e, f)
		}
		return out
	}
	return v
}

// OccursIn reports whether b (a document: a deploy item's configuration)
// holds a registered secret in any of its forms (textForms: as itself, in
// base64, as a JSON string escapes it) or a URL with credentials; for
// what must not be written where others read it (the inventory seals such
// a configuration, inventory/seal.go).
func (s *Secrets) OccursIn(b []byte) bool {
	text := string(b) // once: every job asks of every item's configuration
	if s != nil {
		s.mu.RLock()
		for _, secret := range s.sorted {
			if strings.Contains(text, secret) {
				s.mu.RUnlock()
				return true
			}
		}
		s.mu.RUnlock()
	}
	return HasURLPassword(text)
}
