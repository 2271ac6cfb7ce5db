package template

import (
	"strings"
	"testing"
)

// TestSpiff_ErrorShowsTheTemplateLines (issue 33 item 7): a Spiff failure
// names the deploy item the failing expression lies in and shows the
// template's lines around it — keys and expressions kept, literal values
// masked — and a YAML error of the template shows the lines it names.
func TestSpiff_ErrorShowsTheTemplateLines(t *testing.T) {
	for name, tc := range map[string]struct {
		tmpl string
		want []string
	}{
		"unresolved": {
			tmpl: "deployItems:\n- name: app\n  type: x\n  config:\n    password: hunter2-literal\n    a: (( imports.missing ))\n    b: 1\n",
			want: []string{`(( imports.missing )) in deploy item "app", template lines 4-7 (values masked):`,
				"     4 |   config:", "     5 |     password: …", ">    6 |     a: (( imports.missing ))", "     7 |     b: …"},
		},
		"second item": {
			tmpl: "deployItems:\n- name: one\n  config: {}\n- name: two\n  config:\n    size: (( imports.secret + 1 ))\n",
			want: []string{`in deploy item "two"`, ">    6 |     size: (( imports.secret + 1 ))"},
		},
		"template not YAML": {
			tmpl: "deployItems:\n- name: app\n  config:\n    a: [unclosed\n    b: 2\n",
			want: []string{"template, lines ", "|     a: …"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeSpiff, tc.tmpl),
				Values: map[string]any{"imports": map[string]any{"secret": "s3cr3t-v4lue"}}})
			if err == nil {
				t.Fatal("rendered")
			}
			msg := err.Error()
			if strings.Contains(msg, "hunter2") || strings.Contains(msg, "s3cr3t") || strings.Contains(msg, "unclosed") {
				t.Errorf("the error quotes a value:\n%s", msg)
			}
			if !strings.HasPrefix(msg, `deploy execution "t" (inline template): `) {
				t.Errorf("the error does not name the execution first:\n%s", msg)
			}
			for _, want := range tc.want {
				if !strings.Contains(msg, want) {
					t.Errorf("the error lacks %q:\n%s", want, msg)
				}
			}
		})
	}
}

// TestMaskSpiffLine: expressions and keys stay, literal values go.
func TestMaskSpiffLine(t *testing.T) {
	const tmpl = "key: x\n- name: y"
	for in, want := range map[string]string{
		"  key: (( a.b ))":  "  key: (( a.b ))",
		"  - (( list ))":    "  - (( list ))",
		"  key: literal":    "  key: …",
		"  other: (( x ))":  "  other: (( x ))",
		"  - plain":         "  - …",
		"  key: x (( y ))":  "  key: …",
		"  name: something": "  name: …",
	} {
		if got := maskSpiffLine(in, tmpl); got != want {
			t.Errorf("maskSpiffLine(%q) = %q, want %q", in, got, want)
		}
	}
}
