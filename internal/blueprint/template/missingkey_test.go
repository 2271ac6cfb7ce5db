package template

import (
	"strings"
	"testing"
)

// TestGoTemplate_MissingKeysAsLandscaper pins down how a GoTemplate walks
// through imports that lack a key, as Landscaper's executor
// (missingkey=zero) does: one missing key reads as empty, but a field of a
// missing key is an error — so a blueprint that tests
// `.imports.config.server.auth` fails for `config: {}` here exactly as in
// Landscaper (landscaper-service's shoot blueprint with its own test values
// does), while `dig` and a parenthesised pipeline `((.a.b).c)` read a field
// of a missing key as empty in both (each case checked against Landscaper
// v0.98's renderer).
func TestGoTemplate_MissingKeysAsLandscaper(t *testing.T) {
	values := map[string]any{"imports": map[string]any{"config": map[string]any{"server": map[string]any{}}}}
	cases := []struct{ tmpl, want, err string }{
		{`x: "{{ if .imports.config.port }}set{{ else }}unset{{ end }}"`, "unset", ""},
		{`x: "{{ if .imports.config.server.auth }}set{{ else }}unset{{ end }}"`, "unset", ""},
		{`x: "{{ if .imports.config.client.auth }}set{{ end }}"`, "", "nil pointer evaluating interface {}.auth"},
		{`x: "{{ if (dig "config" "client" "auth" false .imports) }}set{{ else }}unset{{ end }}"`, "unset", ""},
		{`x: "{{ if ((.imports.config.client).auth) }}set{{ else }}unset{{ end }}"`, "unset", ""},
	}
	for _, tc := range cases {
		t.Run(tc.tmpl, func(t *testing.T) {
			res, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeGoTemplate, tc.tmpl), Values: values})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("want error %q, got %v (%v)", tc.err, err, res)
				}
				return
			}
			if err != nil || res.Output["x"] != tc.want {
				t.Fatalf("got %v, %v; want %q", res, err, tc.want)
			}
		})
	}
}
