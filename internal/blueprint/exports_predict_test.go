package blueprint

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"testing/fstest"
)

func predictBlueprint(t *testing.T, executions string) *Blueprint {
	t.Helper()
	b, err := Load(fstest.MapFS{"blueprint.yaml": {Data: []byte(`imports:
- {name: ns, schema: {type: string}}
exports:
- {name: url, schema: {type: string}}
- {name: ip, schema: {type: string}}
- {name: port, schema: {type: integer}}
exportExecutions:
` + executions)}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const predictExecutions = `- name: url
  type: GoTemplate
  template: |
    exports:
      url: "http://svc.{{ .imports.ns }}:{{ .values.deployitems.svc.port }}"
      port: {{ .deployitems.svc.port }}
- name: ip
  type: GoTemplate
  template: |
    exports:
      ip: {{ .values.deployitems.svc.ip }}
`

// The exports that follow from known values are known, and the one an
// unknown value reaches is unknown alone; with every value known, all are.
func TestPredictExports_perKey(t *testing.T) {
	b := predictBlueprint(t, predictExecutions)
	in := ExportInput{Imports: map[string]any{"ns": "demo"}, DeployItems: map[string]map[string]any{"svc": {"port": int64(8080)}}}
	got, ok := b.PredictExports(context.Background(), in, [][]string{{"deployitems", "svc", "ip"}})
	if !ok {
		t.Fatal("the exports' names should be known")
	}
	want := map[string]any{"url": "http://svc.demo:8080", "port": int64(8080)}
	if !reflect.DeepEqual(got.Known, want) || !slices.Equal(got.Unknown, []string{"ip"}) {
		t.Errorf("got known %v unknown %v, want known %v unknown [ip]", got.Known, got.Unknown, want)
	}
	in.DeployItems["svc"]["ip"] = "10.0.0.1"
	got, ok = b.PredictExports(context.Background(), in, nil)
	if !ok || len(got.Unknown) != 0 || got.Known["ip"] != "10.0.0.1" {
		t.Errorf("with every input known: %v %v %v", ok, got.Known, got.Unknown)
	}
}

// Whatever might decide more than a printed value's place leaves the
// plan unable to say which exports there are: a branch on an unknown
// value, a random draw, an unknown item as a whole that a template reads.
func TestPredictExports_notAtPlan(t *testing.T) {
	in := ExportInput{Imports: map[string]any{"ns": "demo"}, DeployItems: map[string]map[string]any{"svc": {"port": int64(8080)}}}
	for name, c := range map[string]struct {
		executions string
		unknown    [][]string
	}{
		"branch": {`- {name: e, type: GoTemplate, template: "exports: {{ if .values.deployitems.svc.ip }}{ip: x}{{ end }}"}` + "\n",
			[][]string{{"deployitems", "svc", "ip"}}},
		"random":     {`- {name: e, type: GoTemplate, template: "exports: {url: {{ randAlpha 4 }}}"}` + "\n", nil},
		"whole item": {predictExecutions, [][]string{{"deployitems", "svc"}}},
	} {
		t.Run(name, func(t *testing.T) {
			if got, ok := predictBlueprint(t, c.executions).PredictExports(context.Background(), in, c.unknown); ok {
				t.Errorf("predicted %v / %v, want no prediction", got.Known, got.Unknown)
			}
		})
	}
}

// A value that fails its schema is left to the apply, which fails on it.
func TestPredictExports_invalidValueUnknown(t *testing.T) {
	b := predictBlueprint(t, `- {name: e, type: GoTemplate, template: "exports: {port: notanumber}"}`+"\n")
	got, ok := b.PredictExports(context.Background(), ExportInput{Imports: map[string]any{"ns": "demo"}}, nil)
	if !ok || len(got.Known) != 0 || !slices.Equal(got.Unknown, []string{"port"}) {
		t.Errorf("got %v %v %v", ok, got.Known, got.Unknown)
	}
}
