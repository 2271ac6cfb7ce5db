package template

import (
	"strings"
	"testing"
)

// An alias inside its own anchor's node used to recurse in the guard until
// the stack overflowed, ending the provider; the guard refuses it now, as
// the parsers do. The fuzzer found the first of these.
func TestCheckYAMLAliases_aliasInsideItsAnchor(t *testing.T) {
	for _, text := range []string{
		"a: &x\n  <<: *x\n  c: d",
		"a: &x [*x]",
		"a: &x {b: [1, {c: *x}]}",
		"- &x\n  - &y [*x, *y]",
		"a: &x 1\nb: &x [*x]", // the alias names the anchor it lies in, not the first
		"a: 1\n---\nb: &x [*x]",
	} {
		err := CheckYAMLAliases("t", []byte(text), 1000)
		if err == nil || err.Error() != "t: a YAML alias lies inside the node of its own anchor" {
			t.Errorf("%q: %v", text, err)
		}
	}
	for _, text := range []string{"a: &x {b: 1}\nc: *x\nd: [*x, *x]", "a: *x", "a: &x 1\nb: &y [*x]\nc: [*y, *y]"} {
		if err := CheckYAMLAliases("t", []byte(text), 1000); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
	bomb := "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
	if err := CheckYAMLAliases("t", []byte(bomb), 1000); err == nil || !strings.Contains(err.Error(), "expand to more than 1000 nodes") {
		t.Errorf("alias bomb: %v", err)
	}
}

// A document yaml.v3 rejects does not end the check: the documents after
// it are counted too (a multi-document read, Spiff's "multiyaml", reads
// them), each in its own right. Input that is not YAML still passes.
func TestCheckYAMLAliases_documentsAfterARejectedOne(t *testing.T) {
	bomb := "a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
	for name, text := range map[string]string{
		"syntax error":   "a: [\n---\n" + bomb,
		"unknown anchor": "a: *nope\n---\n" + bomb,
		"after two":      "x: 1\n---\na: {\n...\n--- \n" + bomb,
		"bomb over docs": "a: ]\n---\n" + bomb[:strings.Index(bomb, "c:")] + "c: [*b,*b,*b,*b,*b]\n---\n" + bomb[:strings.Index(bomb, "c:")] + "c: [*b,*b,*b,*b,*b,*b]\n",
	} {
		if err := CheckYAMLAliases("t", []byte(text), 1000); err == nil || !strings.Contains(err.Error(), "expand to more than 1000 nodes") {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, text := range []string{"echo *.txt ]", "a: [\n---\nb: *x\n", "*\n---\n*"} {
		if err := CheckYAMLAliases("t", []byte(text), 1000); err != nil {
			t.Errorf("%q: %v", text, err)
		}
	}
}
