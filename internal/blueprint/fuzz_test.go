package blueprint

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// maxFuzzInput keeps fuzz inputs small: what is under test is that no input
// panics, not how the libraries scale.
const maxFuzzInput = 4 << 10

// FuzzLoad: parsing any blueprint.yaml returns a blueprint or an error,
// never a panic.
func FuzzLoad(f *testing.F) {
	f.Add([]byte("apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\njsonSchema: x\n"))
	f.Add([]byte("imports: [{name: a, schema: {type: string}}, {name: b, targetType: c, required: false, imports: [{name: d, schema: {}}]}]"))
	f.Add([]byte("deployExecutions: [{name: x, type: GoTemplate, template: 'a'}]\nsubinstallations: [{file: x}, {name: y, blueprint: {ref: cd://resources/x}}]"))
	f.Add([]byte("localTypes: {a: {$ref: 'local://a'}}\nimports: [{name: a, schema: {$ref: 'local://a'}}]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > maxFuzzInput {
			return
		}
		b, err := Load(fstest.MapFS{"blueprint.yaml": {Data: data}})
		if err != nil {
			return
		}
		// A loaded blueprint renders or fails cleanly with empty imports.
		_, _ = b.Render(RenderInput{})
	})
}

// FuzzRenderGoTemplate: any template text and import value renders or
// fails, never panics, and output stays bounded.
func FuzzRenderGoTemplate(f *testing.F) {
	f.Add(`deployItems: [{name: a, type: t, config: {v: {{ .imports.v | toJson }}}}]`, []byte(`{"v": 1}`))
	f.Add(`{{ include "x.tpl" . }}`, []byte(`{}`))
	f.Add(`{{ readFile "../../etc/passwd" }}{{ readDir "/" }}`, []byte(`{"v": "x"}`))
	f.Add(`{{ getResource .cd "name" "x" }}{{ parseOCIRef .imports.v }}`, []byte(`{"v": "a:b"}`))
	f.Add(`state: {{ .state | toYaml }}`, []byte(`null`))
	f.Fuzz(func(t *testing.T, tmpl string, importJSON []byte) {
		// text/template has no step limit: nested loops are bounded only by
		// time, so inputs with more than one loop are not interesting here.
		if len(tmpl) > maxFuzzInput || strings.Count(tmpl, "range") > 1 || strings.Count(tmpl, "until") > 1 {
			return
		}
		var v any
		if json.Unmarshal(importJSON, &v) != nil {
			return
		}
		b := fuzzBlueprint(t, "GoTemplate", tmpl)
		_, _ = b.Render(RenderInput{
			Imports: Imports{Data: map[string]any{"v": v}, Targets: map[string]api.Target{
				"cluster": api.NewTarget("c", "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"x"}`)),
			}},
			State: map[string]json.RawMessage{"deploy/main": importJSON},
		})
	})
}

// FuzzRenderSpiff: any Spiff template renders or fails, never panics.
func FuzzRenderSpiff(f *testing.F) {
	f.Add(`deployItems: [{name: a, type: t, config: {v: (( imports.v ))}}]`, []byte(`{"v": 1}`))
	f.Add(`x: (( read("x.tpl", "text") ))`, []byte(`{}`))
	f.Add(`x: (( parseOCIRef(imports.v) ))`, []byte(`{"v": "a:b"}`))
	f.Fuzz(func(t *testing.T, tmpl string, importJSON []byte) {
		if len(tmpl) > maxFuzzInput || strings.Contains(tmpl, "->") || strings.Contains(tmpl, "lambda") {
			return // self-applied lambdas recurse without a bound in Spiff
		}
		var v any
		if json.Unmarshal(importJSON, &v) != nil {
			return
		}
		b := fuzzBlueprint(t, "Spiff", tmpl)
		_, _ = b.Render(RenderInput{Imports: Imports{Data: map[string]any{"v": v}}})
	})
}

func fuzzBlueprint(t *testing.T, typ, tmpl string) *Blueprint {
	t.Helper()
	b, err := Load(fstest.MapFS{
		"blueprint.yaml": {Data: []byte("imports:\n- {name: v, required: false, schema: {}}\n- {name: cluster, targetType: kubernetes-cluster, required: false}\n" +
			"deployExecutions:\n- {name: main, type: " + typ + ", file: main.tpl}\n")},
		"main.tpl": {Data: []byte(tmpl)},
		"x.tpl":    {Data: []byte("x: {{ . }}")},
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// FuzzMapData: any data mapping over any import value evaluates or fails,
// never panics.
func FuzzMapData(f *testing.F) {
	f.Add(`(( a.b ))`, []byte(`{"a": {"b": 1}}`))
	f.Add(`[(( a )), (( exports.a ))]`, []byte(`{"a": "x"}`))
	f.Add(`{x: (( a + 1 )), y: (( a * 2.5 ))}`, []byte(`{"a": 3}`))
	f.Add(`(( exec("id") ))`, []byte(`{}`))
	f.Fuzz(func(t *testing.T, mapping string, valuesJSON []byte) {
		if len(mapping) > maxFuzzInput || strings.Contains(mapping, "->") || strings.Contains(mapping, "lambda") {
			return
		}
		var values map[string]any
		if json.Unmarshal(valuesJSON, &values) != nil {
			return
		}
		raw, err := json.Marshal(mapping)
		if err != nil {
			return
		}
		m := map[string]json.RawMessage{"k": raw, "structured": json.RawMessage(`{"a": ` + string(raw) + `}`)}
		_, _ = MapImportData(m, values)
		_, _ = MapExportData(m, values, values)
	})
}
