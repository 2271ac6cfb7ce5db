package installation

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// inputBlueprint imports a cluster and a string; its subinstallation, when
// wanted, imports a data object its parent's scope does not have.
func inputBlueprint(template string, brokenSub bool) map[string]string {
	bp := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: in
  schema: {type: string}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: a, type: landscaper.gardener.cloud/mock, target: {import: cluster}, config: {v: ` + template + `}}
`
	if brokenSub {
		sub := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n"
		bp += fmt.Sprintf(`subinstallations:
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: sub
  blueprint:
    filesystem:
      blueprint.yaml: %q
  imports:
    data: [{name: x, dataRef: nowhere}]
`, sub)
	}
	return map[string]string{"blueprint.yaml": bp}
}

func TestInputPath_ErrorsPointAtTheirAttribute(t *testing.T) {
	// a render error lands on the attribute of the input its type names, never by matching its text
	cluster := api.NewTarget("cluster", "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"x"}`))
	other := api.NewTarget("cluster", "", "example.com/other", json.RawMessage(`{}`))
	tests := []struct {
		name     string
		rule     string
		template string
		sub      bool
		imports  blueprint.Imports
		mappings map[string]json.RawMessage
		want     path.Path
	}{
		{"MissingDataImport", "a required data import that is not given is imports", `"{{ .imports.in }}"`, false,
			blueprint.Imports{Targets: map[string]api.Target{"cluster": cluster}}, nil, path.Root("imports")},
		{"WrongTargetType", "a target of the wrong type is that target import", `"{{ .imports.in }}"`, false,
			blueprint.Imports{Data: map[string]any{"in": "v"}, Targets: map[string]api.Target{"cluster": other}}, nil,
			path.Root("imports")},
		{"WrongDataType", "a data import violating its schema is imports", `"{{ .imports.in }}"`, false,
			blueprint.Imports{Data: map[string]any{"in": 42}, Targets: map[string]api.Target{"cluster": cluster}}, nil,
			path.Root("imports")},
		{"BadImportDataMapping", "a failing import data mapping is import_data_mappings", `"{{ .imports.in }}"`, false,
			blueprint.Imports{Data: map[string]any{"in": "v"}, Targets: map[string]api.Target{"cluster": cluster}},
			map[string]json.RawMessage{"m": json.RawMessage(`"(( nosuchfunction() ))"`)}, path.Root("import_data_mappings")},
		{"TemplateError", "a template that fails is the blueprint, even when it mentions imports", `"{{ .imports.in.nope.deeper }}"`, false,
			blueprint.Imports{Data: map[string]any{"in": "v"}, Targets: map[string]api.Target{"cluster": cluster}}, nil, path.Root("blueprint")},
		{"SubinstallationImport", "a subinstallation's missing import is its parent's blueprint wiring", `"{{ .imports.in }}"`, true,
			blueprint.Imports{Data: map[string]any{"in": "v"}, Targets: map[string]api.Target{"cluster": cluster}}, nil, path.Root("blueprint")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bp, comp, err := blueprint.Resolve(blueprint.Source{Inline: inputBlueprint(tt.template, tt.sub)}, blueprint.ComponentSource{})
			if err != nil {
				t.Fatal(err)
			}
			spec := engine.RootSpec{Name: "root", Blueprint: bp, Component: comp, Imports: tt.imports, ImportDataMappings: tt.mappings}
			_, err = engine.Render(context.Background(), spec, nil)
			if err == nil {
				t.Fatalf("%s: no error", tt.rule)
			}
			if got := shared.InputPath(err); !got.Equal(tt.want) {
				t.Errorf("%s: path %s, want %s (error: %v)", tt.rule, got, tt.want, err)
			}
		})
	}
	_, _, err := blueprint.Resolve(blueprint.Source{Inline: inputBlueprint(`x`, false)}, blueprint.ComponentSource{Inline: "{not a descriptor"})
	if got := shared.InputPath(err); err == nil || !got.Equal(path.Root("component_descriptor")) {
		t.Errorf("an unreadable component descriptor is component_descriptor: %s (%v)", got, err)
	}
}

func TestOutcomeOf_UnencodableSnapshotKeepsThePrevious(t *testing.T) {
	// a snapshot that cannot be encoded is an error, and private state keeps the previous snapshot instead of "{}"
	snap := &engine.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Name: "root",
		Exports: map[string]any{"x": math.NaN()}}}
	prev := []byte(`{"version":2}`)
	out, err := outcomeOf(snap, prev)
	if err == nil || out == nil || string(out.snapshot) != string(prev) {
		t.Fatalf("err %v, snapshot %s", err, out.snapshot)
	}
}
