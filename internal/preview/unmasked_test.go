package preview

import (
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// unmaskedObjects are objects without a Secret in which value sits in
// every kind of string the encoder prints differently: plain, quoted
// (": " inside), a literal block, a list item, a number.
func unmaskedObjects(value string, number int) []deployer.PreviewObject {
	return []deployer.PreviewObject{
		{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "app", "namespace": "apps"},
			"data": map[string]any{
				"plain":  "x" + value + "y",
				"quoted": "key: " + value + " # not a comment",
				"block":  "first line\n  " + value + "\nlast line\n",
				"yes":    "yes",
			}}},
		{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "web", "namespace": "apps"},
			"spec": map[string]any{"replicas": number, "args": []any{"--flag=" + value, "plain"}}}},
	}
}

// TestSensitive_MasksNothing: whenever MasksNothing says a text's
// objects rendered again mask nothing, rendering them again under a key
// records no mark; and it says so for the common case, a chart without
// secrets while the registered values are elsewhere.
func TestSensitive_MasksNothing(t *testing.T) {
	const value = "s3cr3t-token-value"
	plain := func(t *testing.T, objs []deployer.PreviewObject) string {
		return Join("", render(t, NewRenderer(NewMarks(nil, nil, nil), nil), "root/app", objs...))
	}
	cases := []struct {
		name     string
		objs     []deployer.PreviewObject
		register func(*Sensitive)
		want     bool
	}{
		{"nothing registered", unmaskedObjects("harmless", 3), func(*Sensitive) {}, true},
		{"registered values elsewhere", unmaskedObjects("harmless", 3), func(s *Sensitive) {
			s.Add(value, "-----BEGIN KEY-----\nMIIEowIBAAKCAQEA\n-----END KEY-----")
		}, true},
		{"a value in a plain, quoted, block and list string", unmaskedObjects(value, 3), func(s *Sensitive) { s.Add(value) }, false},
		{"a value's base64 form", unmaskedObjects(b64(value), 3), func(s *Sensitive) { s.Add(value) }, false},
		{"a number", unmaskedObjects("harmless", 73920184), func(s *Sensitive) { s.Add("73920184") }, false},
		{"one line of a registered block", unmaskedObjects("MIIEowIBAAKCAQEA", 3), func(s *Sensitive) {
			s.Add("-----BEGIN KEY-----\nMIIEowIBAAKCAQEA\n-----END KEY-----")
		}, false},
		{"a value the quoted styles escape: cannot tell", unmaskedObjects("harmless", 3), func(s *Sensitive) { s.Add(`pa"ss\word`) }, false},
		{"sensitive booleans: cannot tell", unmaskedObjects("harmless", 3), func(s *Sensitive) { s.AddBoolPaths([]string{"enabled"}) }, false},
		{"a Secret", secretObjects("hunter2-very-secret", "tok-1234567890"), func(*Sensitive) {}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			text := plain(t, c.objs) // the plan's text: nothing registered then
			var s Sensitive
			c.register(&s)
			got := s.MasksNothing(text)
			if got != c.want {
				t.Fatalf("MasksNothing = %v, want %v; text:\n%s", got, c.want, text)
			}
			marks := NewMarks(testKey, nil, nil)
			render(t, NewRenderer(marks, &s), "root/app", c.objs...)
			if got && len(marks.Table()) > 0 {
				t.Fatalf("MasksNothing, yet rendering again marks %v", marks.Table())
			}
		})
	}
	var none *Sensitive
	if !none.MasksNothing("data:\n  a: b\n") || none.MasksNothing("a: (sensitive value v1)\n") {
		t.Error("a nil Sensitive masks nothing but what the text shows masked")
	}
}
