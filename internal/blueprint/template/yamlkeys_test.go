package template

import (
	"strings"
	"testing"
)

// TestDecodeYAML_CollidingKeysFail proves a map whose keys differ in YAML
// but become one JSON key (1 and "1", true and "true", 1.5 and "1.5") is
// an error naming the key, where it is and both forms — Landscaper keeps
// either value, whichever Go's map order meets last, so the same
// blueprint rendered two configurations. Every run, every form of out,
// the same error.
func TestDecodeYAML_CollidingKeysFail(t *testing.T) {
	for name, c := range map[string]struct{ doc, want string }{
		"int and string":   {"a: 0\n1: x\n'1': y\nz: 0\n", `map key "1" is given twice: as 1 (a number) and as "1" (a string)`},
		"bool and string":  {"true: x\n'true': y\n", `map key "true" is given twice: as "true" (a string) and as true (a boolean)`},
		"yes and string":   {"m: {yes: x, 'true': y}\n", `map key "true" at m is given twice`},
		"float and string": {"l: [ok, {1.5: x, '1.5': y}]\n", `map key "1.5" at l[1] is given twice`},
		"first of several": {"b: {2: x, '2': y}\na: {3: x, '3': y, 1: p, '1': q}\n", `map key "1" at a is given twice`},
	} {
		t.Run(name, func(t *testing.T) {
			outs := map[string]func() any{
				"empty map":        func() any { m := map[string]any{}; return &m },
				"filled map":       func() any { m := map[string]any{"keep": 1}; return &m },
				"interface":        func() any { var v any; return &v },
				"filled interface": func() any { var v any = "old"; return &v },
			}
			for form, out := range outs {
				for range 20 { // map order differs between runs
					err := decodeYAML([]byte(c.doc), out())
					if err == nil || !strings.Contains(err.Error(), c.want) {
						t.Fatalf("%s: want an error containing %q, got %v", form, c.want, err)
					}
				}
			}
		})
	}
	// The template's output: the error names the execution.
	_, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeGoTemplate, "config:\n  1: a\n  '1': b\n")})
	if err == nil || !strings.Contains(err.Error(), `deploy execution "t"`) || !strings.Contains(err.Error(), `map key "1" at config is given twice`) {
		t.Errorf("execution: %v", err)
	}
}
