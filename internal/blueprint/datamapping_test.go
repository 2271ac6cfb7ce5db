package blueprint

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// mappings decodes an installation's importDataMappings/exportDataMappings
// block as a user writes it in YAML.
func mappings(t *testing.T, doc string) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := yaml.Unmarshal([]byte(doc), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// TestMapImportData_SeedExample proves the importDataMappings example of the
// Installation documentation works as written.
func TestMapImportData_SeedExample(t *testing.T) {
	m := mappings(t, `
identifier: my-controller
providers:
- (( aws-provider-type.type ))
- (( gcp-provider-type ))
aws-credentials:
  accessKeyID: (( aws-provider-type.creds.accessKeyID ))
  accessKeySecret: (( aws-provider-type.creds.accessKeySec ))
`)
	imports := map[string]any{
		"aws-provider-type": map[string]any{"type": "aws", "creds": map[string]any{"accessKeyID": "id", "accessKeySec": "sec"}},
		"gcp-provider-type": "gcp",
	}
	got, err := MapImportData(context.Background(), template.Limits{}, m, imports)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"identifier":      "my-controller",
		"providers":       []any{"aws", "gcp"},
		"aws-credentials": map[string]any{"accessKeyID": "id", "accessKeySecret": "sec"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// TestMapExportData_SeedExample proves the exportDataMappings example works
// as written, and that `exports.<name>` reaches names a bare reference cannot.
func TestMapExportData_SeedExample(t *testing.T) {
	m := mappings(t, `
identifier: (( identifier ))
creds:
- type: aws
  creds: (( aws-credentials ))
- type: gcp
  creds: (( gcp-credentials ))
dotted: (( exports["with.dot"] ))
viaExports: (( exports.identifier ))
fromImport: (( region ))
`)
	exports := map[string]any{
		"identifier":      "abc",
		"aws-credentials": map[string]any{"accessKeyID": "id", "accessKeySecret": "sec"},
		"gcp-credentials": map[string]any{"serviceaccount.yaml": "sa"},
		"with.dot":        1,
	}
	got, err := MapExportData(context.Background(), template.Limits{}, m, exports, map[string]any{"region": "eu", "identifier": "shadowed"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"identifier": "abc",
		"creds": []any{
			map[string]any{"type": "aws", "creds": map[string]any{"accessKeyID": "id", "accessKeySecret": "sec"}},
			map[string]any{"type": "gcp", "creds": map[string]any{"serviceaccount.yaml": "sa"}},
		},
		"dotted":     int64(1),
		"viaExports": "abc",
		"fromImport": "eu",
	}
	if !reflect.DeepEqual(normalizeNumbers(got), normalizeNumbers(want)) {
		t.Errorf("got %#v\nwant %#v", got, want)
	}
}

// TestMapImportData_Errors proves a failing mapping names its key and does
// not panic on hostile input.
func TestMapImportData_Errors(t *testing.T) {
	for name, doc := range map[string]string{
		"unresolved reference": `x: (( missing.value ))`,
		"division by zero":     `x: (( 1 / 0 ))`,
		"exec is disabled":     `x: (( exec("id") ))`,
	} {
		t.Run(name, func(t *testing.T) {
			_, err := MapImportData(context.Background(), template.Limits{}, mappings(t, doc), map[string]any{})
			if err == nil || !strings.Contains(err.Error(), `importDataMappings "x"`) {
				t.Fatalf("want an error naming the mapping, got %v", err)
			}
		})
	}
}

func normalizeNumbers(v any) any {
	data, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(data, &out)
	return out
}

// TestMapImportData_LiteralAndNested proves literal values and nested
// structures mix with references (Landscaper's import-export test data).
func TestMapImportData_LiteralAndNested(t *testing.T) {
	m := mappings(t, `
configmapNameIn: cm-example
configmapDataIn:
  key7: (( configmapData1.value ))
  key8: (( configmapData2.value ))
`)
	got, err := MapImportData(context.Background(), template.Limits{}, m, map[string]any{
		"configmapData1": map[string]any{"value": "v1"},
		"configmapData2": map[string]any{"value": float64(2)},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"configmapNameIn": "cm-example", "configmapDataIn": map[string]any{"key7": "v1", "key8": float64(2)}}
	if !reflect.DeepEqual(normalizeNumbers(got), want) {
		t.Errorf("got %#v, want %#v", got, want)
	}
}
