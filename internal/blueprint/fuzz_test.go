package blueprint

import (
	"context"
	"encoding/json"
	"testing"
	"testing/fstest"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// maxFuzzInput keeps fuzz inputs small: what is under test is that no input
// panics, hangs or exhausts memory, not how the libraries scale.
const maxFuzzInput = 4 << 10

// fuzzLimits are small render limits, so that loops, lambdas and alias
// bombs — which the fuzzer is meant to find — fail fast instead of slowing
// every iteration to the default timeout.
var fuzzLimits = template.Limits{
	Timeout: 3 * time.Second, MaxSteps: 100_000, MaxBytes: 4 << 20,
	MaxYAMLNodes: 100_000, MaxMemoryBytes: 256 << 20, MaxStackBytes: 16 << 20,
}

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
		b = b.WithLimits(fuzzLimits)
		// A loaded blueprint renders or fails cleanly with empty imports.
		_, _ = b.Render(context.Background(), RenderInput{})
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
	f.Add(`{{ range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}`, []byte(`{}`))
	f.Add(`{{ $s := "ab" }}{{ range until 60 }}{{ $s = print $s $s }}{{ end }}{{ $s }}`, []byte(`{}`))
	f.Add(`{{ $l := list 1 }}{{ range until 40 }}{{ $l = list $l $l }}{{ end }}{{ toJson $l }}`, []byte(`{}`))
	f.Add(`{{ define "t" }}{{ template "t" . }}{{ template "t" . }}{{ end }}{{ template "t" . }}`, []byte(`{}`))
	f.Add("a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n{{ fromYaml \"x: &x [1,1]\\ny: [*x,*x]\" }}", []byte(`{}`))
	f.Add(`{{ printf "%*d" 100000000 1 }}{{ indent 100000000 "x" }}{{ regexReplaceAll "" "abc" "$0$0$0" }}`, []byte(`{}`))
	f.Fuzz(func(t *testing.T, tmpl string, importJSON []byte) {
		if len(tmpl) > maxFuzzInput {
			return
		}
		var v any
		if json.Unmarshal(importJSON, &v) != nil {
			return
		}
		b := fuzzBlueprint(t, "GoTemplate", tmpl)
		_, _ = fuzzRender(t, b, RenderInput{
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
	f.Add("f: (( |x|->_(x + 1) ))\nx: (( .f(1) ))", []byte(`{}`))
	f.Add("a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: [*b,*b,*b,*b,*b,*b,*b,*b,*b]", []byte(`{}`))
	f.Add(`x: (( sum[[1..100000]|0|s,i|->s + length([1..100000])] ))`, []byte(`{}`))
	f.Add(`x: (( read("http://127.0.0.1:1/x") env("HOME") exec("id") ))`, []byte(`{}`))
	f.Fuzz(func(t *testing.T, tmpl string, importJSON []byte) {
		if len(tmpl) > maxFuzzInput {
			return
		}
		var v any
		if json.Unmarshal(importJSON, &v) != nil {
			return
		}
		b := fuzzBlueprint(t, "Spiff", tmpl)
		_, _ = fuzzRender(t, b, RenderInput{Imports: Imports{Data: map[string]any{"v": v}}})
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
	return b.WithLimits(fuzzLimits)
}

// fuzzRender renders and fails the input if rendering outlived its limits:
// every loop, recursion and bomb must end in an error, not a hang.
func fuzzRender(t *testing.T, b *Blueprint, in RenderInput) (*Rendered, error) {
	t.Helper()
	start := time.Now()
	r, err := b.Render(context.Background(), in)
	if d := time.Since(start); d > 4*fuzzLimits.Timeout {
		t.Fatalf("rendering took %s, limits allow %s per execution", d, fuzzLimits.Timeout)
	}
	return r, err
}

// FuzzMapData: any data mapping over any import value evaluates or fails,
// never panics.
func FuzzMapData(f *testing.F) {
	f.Add(`(( a.b ))`, []byte(`{"a": {"b": 1}}`))
	f.Add(`[(( a )), (( exports.a ))]`, []byte(`{"a": "x"}`))
	f.Add(`{x: (( a + 1 )), y: (( a * 2.5 ))}`, []byte(`{"a": 3}`))
	f.Add(`(( exec("id") ))`, []byte(`{}`))
	f.Add(`(( |x|->_(x) ))`, []byte(`{}`))
	f.Add(`(( ( |f|->f(f) )( |f|->f(f) ) ))`, []byte(`{}`))
	f.Add(`(( env("HOME") ))`, []byte(`{}`))
	f.Fuzz(func(t *testing.T, mapping string, valuesJSON []byte) {
		if len(mapping) > maxFuzzInput {
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
		_, _ = MapImportData(context.Background(), template.Limits{}, m, values)
		_, _ = MapExportData(context.Background(), template.Limits{}, m, values, values)
	})
}
