package redact

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

func TestSecrets_MasksEveryOccurrence(t *testing.T) {
	var s Secrets
	s.Add("s3cr3t-token", "abc") // "abc" is too short to be masked
	s.AddValue(map[string]any{"db": map[string]any{"password": "hunter22"}, "list": []any{"pem-line-1\npem-line-2"}})
	msg := `token "s3cr3t-token", {"password":"hunter22"} and pem-line-2} abc`
	got := s.String(msg)
	for _, leak := range []string{"s3cr3t-token", "hunter22", "pem-line-2"} {
		if strings.Contains(got, leak) {
			t.Errorf("%q leaks %q", got, leak)
		}
	}
	if !strings.Contains(got, "abc") {
		t.Errorf("short value masked: %q", got)
	}
}

func TestSecrets_LongestFirst(t *testing.T) {
	var s Secrets
	s.Add("secret", "secret-and-more")
	if got := s.String("x secret-and-more y"); got != "x "+Mask+" y" {
		t.Errorf("got %q", got)
	}
}

func TestURLs(t *testing.T) {
	for in, want := range map[string]string{
		"get https://user:pa55@charts.example/x.tgz failed": "get https://user:xxxxx@charts.example/x.tgz failed",
		`"https://charts.example/x.tgz?sig=abc&exp=1": 403`: `"https://charts.example/x.tgz?<redacted>": 403`,
		"oci://tok3n@registry.example/repo":                 "oci://xxxxx@registry.example/repo",
		"no url here":                                       "no url here",
	} {
		if got := URLs(in); got != want {
			t.Errorf("URLs(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKubeconfig_NeverEchoesValues(t *testing.T) {
	kubeconfig := "apiVersion: v1\nusers:\n- name: u\n  user: {token: tok-12345, {bad: map}: x}\n"
	err := errors.New(`yaml: invalid map key: map[interface {}]interface {}{"token":"tok-12345"}`)
	got := Kubeconfig(err, kubeconfig)
	if strings.Contains(got, "tok-12345") {
		t.Errorf("leaks the token: %q", got)
	}
	if !strings.Contains(got, "invalid map key") || !strings.Contains(got, "token") {
		t.Errorf("lost the message: %q", got)
	}
}

func TestKubeconfigCredentials(t *testing.T) {
	var s Secrets
	s.KubeconfigCredentials("apiVersion: v1\nclusters: [{name: prod, cluster: {server: https://api.example}}]\n" +
		"users: [{name: admin, user: {token: tok-98765, client-key-data: S0VZREFUQQ==}}]\n")
	got := s.String("cluster prod at https://api.example: token tok-98765 key S0VZREFUQQ==")
	if strings.Contains(got, "tok-98765") || strings.Contains(got, "S0VZREFUQQ==") {
		t.Errorf("leaks: %q", got)
	}
	if !strings.Contains(got, "https://api.example") {
		t.Errorf("masked the server: %q", got)
	}
}

// Values the API server and Helm's schema check quote are masked even
// when nobody registered them; paths and rules stay readable.
func TestSecrets_MasksQuotedValues(t *testing.T) {
	var s *Secrets
	for _, c := range []struct{ in, want string }{
		{`ConfigMap "x" is invalid: metadata.name: Invalid value: "Hunter2_pw": a lowercase RFC 1123 subdomain must consist of …`,
			`ConfigMap "x" is invalid: metadata.name: Invalid value: <redacted>: a lowercase RFC 1123 subdomain must consist of …`},
		{`spec.replicas: Invalid value: 31337: must be greater than or equal to 0`,
			`spec.replicas: Invalid value: <redacted>: must be greater than or equal to 0`},
		{`spec.type: Unsupported value: "Hunter2": supported values: "ClusterIP"`,
			`spec.type: Unsupported value: <redacted>: supported values: "ClusterIP"`},
		{"values don't meet the specifications of the schema(s) in the following chart(s):\ncanary:\n" +
			"- at '/password': 'Hunter2 it\\'s' does not match pattern '^[0-9]+$'\n- at '/pin': maximum: got 31337, want 9999\n" +
			"- at '/mail': 'Hunter2' is not valid email: missing @\n- at '/n': got string, want integer",
			"values don't meet the specifications of the schema(s) in the following chart(s):\ncanary:\n" +
				"- at '/password': <redacted> does not match pattern '^[0-9]+$'\n- at '/pin': maximum: got <redacted>, want 9999\n" +
				"- at '/mail': <redacted> is not valid email: missing @\n- at '/n': got string, want integer"},
		{`deploy item "x": waiting at 'step': nothing quoted`, `deploy item "x": waiting at 'step': nothing quoted`},
	} {
		if got := s.String(c.in); got != c.want {
			t.Errorf("String(%q)\n got  %q\n want %q", c.in, got, c.want)
		}
	}
}

// A target shared by many installations is learned at every refresh, plan
// and job of each: a kubeconfig seen before is not parsed again, and a
// different one still is.
func TestKubeconfigCredentials_LearnedOnce(t *testing.T) {
	var s Secrets
	first := "apiVersion: v1\nusers: [{name: a, user: {token: tok-11111}}]\n" + strings.Repeat("# padding\n", 200)
	s.KubeconfigCredentials(first)
	known := s.Len()
	if allocs := testing.AllocsPerRun(20, func() { s.KubeconfigCredentials(first) }); allocs > 2 {
		t.Errorf("a known kubeconfig cost %v allocations: parsed again", allocs)
	}
	if s.Len() != known {
		t.Errorf("secrets changed from %d to %d", known, s.Len())
	}
	s.KubeconfigCredentials("apiVersion: v1\nusers: [{name: b, user: {token: tok-22222}}]\n")
	if got := s.String("tok-11111 tok-22222"); got != Mask+" "+Mask {
		t.Errorf("got %q", got)
	}
}

// Adding what is registered already keeps the secrets and their order.
func TestSecrets_AddKnownKeepsOrder(t *testing.T) {
	var s Secrets
	s.Add("secret", "secret-longer")
	s.Add("secret")
	if got := s.String("secret-longer and secret"); got != Mask+" and "+Mask {
		t.Errorf("got %q", got)
	}
	if s.Len() != 4 { // each with its base64 form
		t.Errorf("Len = %d", s.Len())
	}
}

// A Secret import decoded from JSON holds numbers, not strings: each is
// masked in every form a message may print it in (its JSON text, Go's %v
// and strconv forms). Booleans and numbers shorter than minSecret in
// every form are not: they would mask every "true" or "1" and protect
// nothing.
func TestSecrets_AddValueMasksNumbers(t *testing.T) {
	var s Secrets
	s.AddValue(map[string]any{
		"pin":   float64(73920184),
		"ratio": 0.000012345,
		"big":   json.Number("123456789012345678901"),
		"port":  int64(55443),
		"list":  []any{uint16(48611)},
		"deep":  map[string]any{"n": 3.5, "on": true, "one": float64(1)},
		"typed": map[string]int{"a": 8675309},
	})
	for _, leak := range []string{
		"73920184", "7.3920184e+07", fmt.Sprintf("%v", float64(73920184)), fmt.Sprintf("%#v", float64(73920184)),
		"1.2345e-05", "0.000012345",
		"123456789012345678901", "1.2345678901234568e+20",
		"55443", "48611", "8675309", "8.675309e+06",
	} {
		if got := s.String("value " + leak + " rejected"); strings.Contains(got, leak) {
			t.Errorf("%q leaks %q", got, leak)
		}
	}
	msg := "replicas 1 and 3.5, enabled: true"
	if got := s.String(msg); got != msg {
		t.Errorf("short scalar masked: %q", got)
	}
}

// The API server prints a field error's value of another type than a
// string or a simple number with %#v: a map, a list or a struct, with
// spaces, colons and commas inside. The whole value is masked, not only
// its text up to the first of them; the detail after it stays.
func TestQuotedValues_GoSyntaxValues(t *testing.T) {
	type creds struct {
		User     string
		Password string
	}
	for _, bad := range []any{
		map[string]any{"password": "hunter2:x", "n": 1},
		[]string{"s3cret-a", "s3cret-b"},
		creds{User: "admin", Password: "hunter2, really"},
		&creds{Password: "hunter2{}"},
		map[string][]int{"k": {48611, 1}},
	} {
		msg := field.Invalid(field.NewPath("spec", "data"), bad, "must be a string").Error()
		got := QuotedValues(msg)
		for _, leak := range []string{"hunter2", "s3cret", "admin", "48611"} {
			if strings.Contains(got, leak) {
				t.Errorf("%s\n  → %s: leaks %q", msg, got, leak)
			}
		}
		if want := "spec.data: Invalid value: " + Mask + ": must be a string"; got != want {
			t.Errorf("%s\n  → %s, want %s", msg, got, want)
		}
	}
	// Go syntax, as API servers before apimachinery v0.33 print it.
	msg := `spec.c: Invalid value: v1.Creds{User:"adm1n", Password:"p: w, {d}"}: must be a string`
	if got, want := QuotedValues(msg), `spec.c: Invalid value: `+Mask+`: must be a string`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// Several errors of one message, each masked to its own end.
	msg = `[spec.a: Invalid value: []string{"x1y2z3", "q"}: bad, spec.b: Unsupported value: map[string]interface {}{"k":"v9w8"}: supported values: "a"]`
	if got, want := QuotedValues(msg), `[spec.a: Invalid value: `+Mask+`: bad, spec.b: Unsupported value: `+Mask+`: supported values: "a"]`; got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSecrets_Values: what is registered can be handed on, lines of a
// multi-line value included, short values not.
func TestSecrets_Values(t *testing.T) {
	var s Secrets
	s.Add("abc", "first line\nsecond line")
	s.AddValue(map[string]any{"k": "hunter22"})
	got := strings.Join(s.Values(), "|")
	// Each with its base64 form and, where JSON escapes it, its quoted form.
	if got != "Zmlyc3QgbGluZQpzZWNvbmQgbGluZQ==|first line\\nsecond line|first line\nsecond line|"+
		"Zmlyc3QgbGluZQ==|c2Vjb25kIGxpbmU=|aHVudGVyMjI=|second line|first line|hunter22" {
		t.Errorf("values = %q", got)
	}
	if (*Secrets)(nil).Values() != nil {
		t.Error("a nil set has values")
	}
}
