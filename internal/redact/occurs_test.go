package redact

import (
	"encoding/base64"
	"encoding/json"
	"testing"
)

// OccursIn finds a registered secret in a document in each form a
// configuration may hold it (itself, base64, JSON-escaped), and a URL
// with credentials; it finds nothing in a document without either.
func TestSecrets_OccursIn(t *testing.T) {
	var s Secrets
	secret := "pa\"ss<word>"
	s.AddValue(map[string]any{"password": secret, "pin": 48151623})
	enc, _ := json.Marshal(map[string]any{"v": secret})
	for name, doc := range map[string]string{
		"JSON-escaped": string(enc),
		"base64":       `{"b64":"` + base64.StdEncoding.EncodeToString([]byte(secret)) + `"}`,
		"number":       `{"pods":48151623}`,
		"URL password": `{"url":"https://user:hunter2@example.com/charts"}`,
	} {
		if !s.OccursIn([]byte(doc)) {
			t.Errorf("%s: %s holds a secret, OccursIn says no", name, doc)
		}
	}
	for _, doc := range []string{`{"data":{"a":"b"}}`, `{"url":"https://example.com/charts","mail":"a@b.c"}`, `null`} {
		if s.OccursIn([]byte(doc)) {
			t.Errorf("%s holds no secret, OccursIn says it does", doc)
		}
	}
	var none *Secrets
	if none.OccursIn([]byte(`{"a":"b"}`)) || !none.OccursIn([]byte(`"https://u:p@h"`)) {
		t.Error("a nil registry knows URL credentials only")
	}
}
