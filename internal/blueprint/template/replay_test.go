package template

import (
	"encoding/json"
	"testing"
)

func TestReplayable(t *testing.T) {
	for _, c := range []struct {
		name, typ, text string
		want            bool
	}{
		{"reads its inputs", TypeGoTemplate, `deployItems: [{name: a, config: {x: {{ .imports.ns | quote }}}}]`, true},
		{"everything", TypeGoTemplate, `deployItems: {{ toYaml .imports }}`, true},
		{"random", TypeGoTemplate, `deployItems: [{name: {{ randAlphaNum 5 }}}]`, false},
		{"the clock", TypeGoTemplate, `x: {{ now | date "2006" }}`, false},
		{"a UUID", TypeGoTemplate, `x: {{ uuidv4 }}`, false},
		{"a certificate", TypeGoTemplate, `x: {{ genCA "ca" 365 }}`, false},
		{"include", TypeGoTemplate, `x: {{ include "other.tpl" . }}`, false},
		{"a cluster token", TypeGoTemplate, `x: {{ getServiceAccountKubeconfig "sa" "ns" 3600 .imports.t }}`, false},
		{"a resource's content", TypeGoTemplate, `x: {{ getResourceContent .cd "name" "chart" }}`, false},
		{"does not parse", TypeGoTemplate, `x: {{ if }}`, false},
		{"spiff", TypeSpiff, `x: (( imports.ns ))`, true},
		{"spiff random", TypeSpiff, `x: (( rand("[a-z]", 5) ))`, false},
		{"spiff resource content", TypeSpiff, `x: (( getResourceContent(cd, "name", "chart") ))`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmpl, _ := json.Marshal(c.text)
			if got := Replayable(Request{Execution: Execution{Name: "e", Type: c.typ, Template: tmpl}}); got != c.want {
				t.Errorf("Replayable(%s) = %v, want %v", c.text, got, c.want)
			}
		})
	}
	if !MappingsReplayable(map[string]json.RawMessage{"a": json.RawMessage(`"(( b ))"`)}) ||
		MappingsReplayable(map[string]json.RawMessage{"a": json.RawMessage(`"(( rand(\"[a-z]\", 5) ))"`)}) {
		t.Error("MappingsReplayable misjudges a plain or a random mapping")
	}
}
