package template

import (
	"encoding/json"
	"testing"
)

func TestAnalyze_GoTemplate(t *testing.T) {
	unknown := [][]string{{"deployitems", "svc", "ip"}, {"values", "deployitems", "svc", "ip"}}
	for _, c := range []struct {
		name, text string
		want       Dependence
	}{
		{"reads other keys", `exports: {url: "http://{{ .imports.ns }}:{{ .values.deployitems.svc.port | int }}"}`, Independent},
		{"prints it", `exports: {ip: {{ .values.deployitems.svc.ip }}}`, Printed},
		{"prints it from $", `exports: {ip: {{ $.deployitems.svc.ip }}}`, Printed},
		{"quotes it", `exports: {ip: {{ .values.deployitems.svc.ip | quote }}}`, Opaque},
		{"branches on it", `exports: {a: {{ if .values.deployitems.svc.ip }}x{{ end }}}`, Opaque},
		{"the item whole", `exports: {a: {{ toJson .values.deployitems.svc }}}`, Opaque},
		{"the item in with", `{{ with .values.deployitems.svc }}exports: {a: {{ .port }}}{{ end }}`, Opaque},
		{"everything", `exports: {a: {{ toYaml . }}}`, Opaque},
		{"a variable", `{{ $v := .values.deployitems }}exports: {a: {{ $v.svc.port }}}`, Opaque},
		{"index", `exports: {a: {{ index .values.deployitems "svc" "ip" }}}`, Opaque},
		{"a template call", `{{ define "x" }}{{ .svc.ip }}{{ end }}exports: {a: {{ template "x" .values.deployitems }}}`, Opaque},
		{"random", `exports: {a: {{ randAlphaNum 5 }}}`, Opaque},
		{"the clock", `exports: {a: {{ now | date "2006" }}}`, Opaque},
		{"include", `exports: {a: {{ include "other.tpl" .imports }}}`, Opaque},
		{"parenthesised", `exports: {a: {{ (.values.deployitems.svc.ip) }}}`, Opaque},
		{"does not parse", `exports: {{ if }}`, Opaque},
	} {
		t.Run(c.name, func(t *testing.T) {
			tmpl, _ := json.Marshal(c.text)
			got := Analyze(Request{Execution: Execution{Name: "e", Type: TypeGoTemplate, Template: tmpl}}, unknown)
			if got != c.want {
				t.Errorf("Analyze(%s) = %d, want %d", c.text, got, c.want)
			}
		})
	}
}

func TestAnalyze_Spiff(t *testing.T) {
	plain := json.RawMessage(`{"exports": {"name": "(( values.deployitems.config.name ))"}}`)
	random := json.RawMessage(`{"exports": {"name": "(( rand(\"[:alnum:]\", 10) ))"}}`)
	ex := func(tmpl json.RawMessage) Request {
		return Request{Execution: Execution{Name: "e", Type: TypeSpiff, Template: tmpl}}
	}
	if got := Analyze(ex(plain), nil); got != Independent {
		t.Errorf("a Spiff execution with known inputs = %d, want Independent", got)
	}
	if got := Analyze(ex(plain), [][]string{{"deployitems", "config", "uid"}}); got != Opaque {
		t.Errorf("a Spiff execution with an unknown input = %d, want Opaque (Spiff is not analysed)", got)
	}
	if got := Analyze(ex(random), nil); got != Opaque {
		t.Errorf("a Spiff execution drawing a random value = %d, want Opaque", got)
	}
}
