package blueprint

import (
	"strings"
	"testing"
	"testing/fstest"
)

func loadString(t *testing.T, doc string) (*Blueprint, error) {
	t.Helper()
	return Load(fstest.MapFS{"blueprint.yaml": {Data: []byte(doc)}})
}

// TestLoad_Defaults proves Landscaper's defaults: jsonSchemaVersion 2019-09,
// import/export types from schema or targetType, required true, and the
// landscaper domain on target and targetList types but not targetMap.
func TestLoad_Defaults(t *testing.T) {
	b, err := loadString(t, `
imports:
- {name: d, schema: {type: string}}
- {name: t, targetType: kubernetes-cluster}
- {name: l, type: targetList, targetType: kubernetes-cluster}
- {name: m, type: targetMap, targetType: kubernetes-cluster}
- {name: q, targetType: example.com/custom}
exports:
- {name: e, targetType: kubernetes-cluster}
- {name: f, schema: {type: object}}
`)
	if err != nil {
		t.Fatal(err)
	}
	if b.JSONSchemaVersion != DefaultJSONSchemaVersion {
		t.Errorf("jsonSchemaVersion = %q", b.JSONSchemaVersion)
	}
	want := []struct {
		typ        ImportType
		targetType string
	}{
		{ImportTypeData, ""},
		{ImportTypeTarget, "landscaper.gardener.cloud/kubernetes-cluster"},
		{ImportTypeTargetList, "landscaper.gardener.cloud/kubernetes-cluster"},
		{ImportTypeTargetMap, "kubernetes-cluster"},
		{ImportTypeTarget, "example.com/custom"},
	}
	for i, w := range want {
		got := b.Imports[i]
		if got.Type != w.typ || got.TargetType != w.targetType || !got.IsRequired() {
			t.Errorf("import %s: got %s %q required=%v, want %s %q", got.Name, got.Type, got.TargetType, got.IsRequired(), w.typ, w.targetType)
		}
	}
	if b.Exports[0].Type != ImportTypeTarget || b.Exports[0].TargetType != "landscaper.gardener.cloud/kubernetes-cluster" || b.Exports[1].Type != ImportTypeData {
		t.Errorf("exports not defaulted: %+v", b.Exports)
	}
}

// TestLoad_Warnings proves unknown fields at any depth are reported and
// never stop loading; `jsonSchema:` (Landscaper's guided tour writes it,
// Landscaper ignores it) is accepted without a warning (issue 26).
func TestLoad_Warnings(t *testing.T) {
	b, err := loadString(t, `
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
jsonSchema: x
imports:
- name: a
  schema: {type: string, anything: [goes]}
  reqired: false
deployExecutions:
- {name: x, type: GoTemplate, template: "x: 1", fiel: y}
subinstallations:
- name: s
  blueprint: {ref: cd://resources/x, reff: y}
  imports: {data: [{name: a, dataRef: b, dataReff: c}]}
`)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(b.Warnings, "\n")
	for _, want := range []string{
		"imports[0].reqired: unknown field",
		"deployExecutions[0].fiel: unknown field",
		"subinstallations[0].blueprint.reff: unknown field",
		"subinstallations[0].imports.data[0].dataReff: unknown field",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("warnings lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "jsonSchema") {
		t.Errorf("jsonSchema, which Landscaper ignores, is warned about: %s", got)
	}
	if strings.Contains(got, "anything") {
		t.Errorf("schema content must not be checked: %s", got)
	}
}

// TestLoad_Invalid proves invalid definitions fail with the field named.
func TestLoad_Invalid(t *testing.T) {
	cases := map[string]struct{ doc, want string }{
		"not yaml":                   {"imports: [", "not valid YAML"},
		"not an object":              {"- a", "must be a YAML object"},
		"duplicate import":           {"imports: [{name: a, schema: {}}, {name: a, schema: {}}]", `duplicate import name "a"`},
		"nested duplicate import":    {"imports: [{name: a, required: false, schema: {}, imports: [{name: a, schema: {}}]}]", `duplicate import name "a"`},
		"schema and targetType":      {"imports: [{name: a, schema: {}, targetType: x}]", "not both"},
		"neither":                    {"imports: [{name: a}]", "either schema or targetType must be set"},
		"unknown type":               {"imports: [{name: a, type: blob, schema: {}}]", `"blob" is not one of`},
		"conditional under required": {"imports: [{name: a, schema: {}, imports: [{name: b, schema: {}}]}]", "optional (required: false) parent"},
		"executions with one name":   {"deployExecutions: [{name: a, type: GoTemplate, template: x}, {name: a, type: GoTemplate, template: y}]", "deployExecutions[1]: duplicate execution name"},
		"export duplicate":           {"exports: [{name: a, schema: {}}, {name: a, schema: {}}]", `duplicate export name "a"`},
		"subinstallation both":       {"subinstallations: [{file: a.yaml, name: x}]", "not both"},
		"subinstallation blueprint":  {"subinstallations: [{name: x}]", "exactly one of ref and filesystem"},
		"wrong field type":           {"imports: {a: b}", "cannot unmarshal"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := loadString(t, tc.doc)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("want error containing %q, got %v", tc.want, err)
			}
		})
	}
}

// TestLoad_MissingFile proves a filesystem without blueprint.yaml is an error.
func TestLoad_MissingFile(t *testing.T) {
	if _, err := Load(fstest.MapFS{}); err == nil || !strings.Contains(err.Error(), "blueprint.yaml") {
		t.Fatalf("got %v", err)
	}
	if _, err := Load(nil); err == nil {
		t.Fatal("nil filesystem accepted")
	}
}
