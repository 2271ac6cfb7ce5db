package blueprint

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// big is 2^53 + 1: the smallest integer a float64 cannot hold, so any
// decoding into float64 on the way shows as ...992.
const big = "9007199254740993"

// bigInputs are the shapes a large integer arrives in: from Terraform
// (int64), from the snapshot and JSON imports (json.Number), nested.
func bigInputs() map[string]any {
	return map[string]any{
		"int64":  map[string]any{"n": int64(9007199254740993), "l": []any{int64(9007199254740993)}},
		"number": map[string]any{"n": json.Number(big), "l": []any{json.Number(big)}},
	}
}

// numberBlueprint deploys one item whose config carries the import v
// through the template of typ.
func numberBlueprint(t *testing.T, typ, tmpl, export string) *Blueprint {
	t.Helper()
	files := fstest.MapFS{
		"blueprint.yaml": {Data: []byte("imports:\n- {name: v, schema: {}}\nexports:\n- {name: out, schema: {}}\n" +
			"deployExecutions:\n- {name: main, type: " + typ + ", file: main.tpl}\n" +
			"exportExecutions:\n- {name: ex, type: " + typ + ", file: export.tpl}\n")},
		"main.tpl":   {Data: []byte(tmpl)},
		"export.tpl": {Data: []byte(export)},
	}
	b, err := Load(files)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Integers above 2^53 keep every digit through rendering: the template
// values, the deploy item configs, export executions over deploy item
// exports, and data mappings, with GoTemplate and Spiff alike; a
// json.Number (as the snapshot decodes) compares in GoTemplate like the
// int64 Terraform gives.
func TestRender_integersAbove2p53StayExact(t *testing.T) {
	templates := map[string][2]string{
		"GoTemplate": {`deployItems:
- name: item
  type: landscaper.gardener.cloud/mock
  config:
    value: {{ .imports.v.n }}
    json: {{ toJson .imports.v }}
    list: {{ index .imports.v.l 0 }}
    whole: {{ .imports.v | toYaml | nindent 6 }}
    compared: {{ if gt .imports.v.n 1 }}{{ .imports.v.n }}{{ end }}
`, `exports:
  out:
    item: {{ .deployitems.item.n }}
    json: {{ toJson .deployitems.item }}
    imported: {{ .imports.v.n }}
`},
		"Spiff": {`deployItems:
- name: item
  type: landscaper.gardener.cloud/mock
  config:
    value: (( imports.v.n ))
    list: (( imports.v.l[0] ))
    whole: (( imports.v ))
`, `exports:
  out:
    item: (( deployitems.item.n ))
    json: (( deployitems.item ))
    imported: (( imports.v.n ))
`},
	}
	for typ, tmpl := range templates {
		for shape, v := range bigInputs() {
			t.Run(typ+"/"+shape, func(t *testing.T) {
				b := numberBlueprint(t, typ, tmpl[0], tmpl[1])
				r, err := b.Render(context.Background(), RenderInput{Imports: Imports{Data: map[string]any{"v": v}}})
				if err != nil {
					t.Fatal(err)
				}
				if len(r.DeployItems) != 1 {
					t.Fatalf("items: %+v", r.DeployItems)
				}
				cfg := string(r.DeployItems[0].Config)
				if n := strings.Count(cfg, big); n < 3 {
					t.Errorf("config %s: %d exact copies of %s, want every value", cfg, n, big)
				}
				ex, err := b.RenderExports(context.Background(), ExportInput{Imports: r.Imports, DeployItems: map[string]map[string]any{"item": v.(map[string]any)}})
				if err != nil {
					t.Fatal(err)
				}
				out, err := json.Marshal(ex.Data["out"])
				if err != nil {
					t.Fatal(err)
				}
				if n := strings.Count(string(out), big); n < 4 {
					t.Errorf("exports %s: %d exact copies of %s", out, n, big)
				}
				mapped, err := MapExportData(context.Background(), template.Limits{}, mappings(t, "m: (( out.item ))\nk: (( exports.out.imported ))\n"), ex.Data, r.Imports)
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := json.Marshal(mapped); strings.Count(string(got), big) != 2 {
					t.Errorf("export data mappings: %s", got)
				}
				imported, err := MapImportData(context.Background(), template.Limits{}, mappings(t, "m: (( v.n ))\nl: (( v.l ))\n"), map[string]any{"v": v})
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := json.Marshal(imported); strings.Count(string(got), big) != 2 {
					t.Errorf("import data mappings: %s", got)
				}
			})
		}
	}
}

// A blueprint's import default and integers beyond int64 (up to 2^64-1,
// what YAML decodes as an integer) keep their digits too.
func TestRender_importDefaultAndHugeIntegersStayExact(t *testing.T) {
	const huge = "18446744073709551615"
	for _, typ := range []string{"GoTemplate", "Spiff"} {
		t.Run(typ, func(t *testing.T) {
			tmpl := "deployItems:\n- name: item\n  type: landscaper.gardener.cloud/mock\n  config: {d: {{ .imports.d }}, h: " + huge + "}\n"
			if typ == "Spiff" {
				tmpl = "deployItems:\n- name: item\n  type: landscaper.gardener.cloud/mock\n  config: {d: (( imports.d ))}\n"
			}
			b, err := Load(fstest.MapFS{
				"blueprint.yaml": {Data: []byte("imports:\n- {name: d, required: false, schema: {type: integer}, default: {value: " + big + "}}\n" +
					"deployExecutions:\n- {name: main, type: " + typ + ", file: main.tpl}\n")},
				"main.tpl": {Data: []byte(tmpl)},
			})
			if err != nil {
				t.Fatal(err)
			}
			r, err := b.Render(context.Background(), RenderInput{})
			if err != nil {
				t.Fatal(err)
			}
			cfg := string(r.DeployItems[0].Config)
			if !strings.Contains(cfg, `"d":`+big) || (typ == "GoTemplate" && !strings.Contains(cfg, `"h":`+huge)) {
				t.Errorf("config %s", cfg)
			}
		})
	}
}
