package blueprint

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/jsonschema"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// targetTemplate is a target export as export executions write it.
type targetTemplate struct {
	Type        string            `json:"type"`
	Config      json.RawMessage   `json:"config,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// RenderExports runs the export executions (their outputs deep-merged in
// order, as Landscaper merges them), drops exports the blueprint does not declare and validates the
// rest: data against its schema, targets against their targetType.
func (b *Blueprint) RenderExports(ctx context.Context, in ExportInput) (*Exported, error) {
	values, err := b.exportValues(in)
	if err != nil {
		return nil, err
	}
	out := &Exported{Data: map[string]any{}, Targets: map[string]api.Target{}, State: map[string]json.RawMessage{}}
	exports, err := b.runExportExecutions(ctx, in, values, out.State)
	if err != nil {
		return nil, err
	}
	for _, def := range b.Exports {
		value, ok := exports[def.Name]
		if !ok {
			continue
		}
		switch def.Type {
		case ImportTypeData:
			if err := b.validateValue(fmt.Sprintf("export %q", def.Name), def.Name, def.Schema, value, in.Component, &out.Warnings); err != nil {
				return nil, terminal(ReasonExportValidationFailed, err)
			}
			out.Data[def.Name] = value
		case ImportTypeTarget:
			t, err := exportedTarget(def, value)
			if err != nil {
				return nil, terminal(ReasonExportValidationFailed, err)
			}
			out.Targets[def.Name] = t
		}
	}
	return out, nil
}

// exportValues are the inputs every export execution sees.
func (b *Blueprint) exportValues(in ExportInput) (map[string]any, error) {
	targets, err := targetValues(in.Targets)
	if err != nil {
		return nil, terminal(ReasonTemplateFailed, err)
	}
	dataObjects, targets := b.withOwnImports(in.Imports, in.DataObjects, targets)
	internal := map[string]any{
		"deployitems": orEmpty(in.DeployItems),
		"dataobjects": dataObjects,
		"targets":     targets,
	}
	values := b.templateValues(orEmptyAny(in.Imports), in.Component)
	values["values"] = internal
	for k, v := range internal {
		values[k] = v
	}
	return values, nil
}

// runExportExecutions runs the export executions over values and merges
// their outputs; state (nil: not kept) receives their state outputs.
func (b *Blueprint) runExportExecutions(ctx context.Context, in ExportInput, values map[string]any, state map[string]json.RawMessage) (map[string]any, error) {
	exports := map[string]any{}
	for _, ex := range b.ExportExecutions {
		res, err := template.Run(template.Request{
			Kind: "export execution", Execution: ex, Files: b.Files, Component: in.Component, Values: values,
			State: in.State[statePrefixExport+ex.Name], WithState: true, RejectNoValue: true, Context: ctx, Limits: b.limits,
			Cluster: in.Cluster,
		})
		if err != nil {
			return nil, terminal(ReasonTemplateFailed, err)
		}
		if state != nil {
			keepState(state, statePrefixExport+ex.Name, res.State, in.State)
		}
		raw, ok := res.Output["exports"]
		if !ok || raw == nil {
			continue
		}
		m, ok := raw.(map[string]any)
		if !ok {
			return nil, terminal(ReasonTemplateFailed, fmt.Errorf("%s: exports must be an object", ex.Describe("export execution")))
		}
		exports = mergeDeep(exports, m)
	}
	return exports, nil
}

// exportSchemaWarnings compiles the data export schemas and returns what
// their compilation tolerated (a `$ref` fragment without a leading slash).
// Exports are validated only after apply, where the engine records no
// warnings; rendering reports them, so a plan shows them. A schema that
// does not compile is left to RenderExports, which fails on it.
func (b *Blueprint) exportSchemaWarnings(comp *Component) []string {
	var warnings []string
	for _, def := range b.Exports {
		if def.Type != ImportTypeData || len(def.Schema) == 0 {
			continue
		}
		what := fmt.Sprintf("export %q", def.Name)
		ctx := b.schemaContext(comp, func(w string) { warnings = append(warnings, what+": "+w) })
		_, _ = jsonschema.Compile(ctx, def.Schema)
	}
	return warnings
}

// exportedTarget converts a target template into a Target of the declared type.
func exportedTarget(def ExportDefinition, value any) (api.Target, error) {
	var tt targetTemplate
	if err := remarshal(value, &tt); err != nil {
		return api.Target{}, fmt.Errorf("export %q: not a target {type, config, labels, annotations}: %w", def.Name, err)
	}
	if tt.Type != def.TargetType {
		return api.Target{}, fmt.Errorf("export %q: target type is %q but the blueprint declares %q", def.Name, tt.Type, def.TargetType)
	}
	t := api.NewTarget("", "", tt.Type, tt.Config)
	t.Metadata.Labels = tt.Labels
	t.Metadata.Annotations = tt.Annotations
	return t, nil
}

func targetValues(targets map[string]api.Target) (map[string]any, error) {
	out := make(map[string]any, len(targets))
	for k, t := range targets {
		v, err := targetValue(t)
		if err != nil {
			return nil, fmt.Errorf("export input targets[%q]: %w", k, err)
		}
		out[k] = v
	}
	return out, nil
}

func orEmpty(m map[string]map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func orEmptyAny(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// withOwnImports adds the installation's declared imports to what its
// export executions see: Landscaper stores every import as a data object
// or target in the installation's own context, next to its
// subinstallations' exports, and hands all of them to the export
// executions. The subinstallations' exports win on a name clash (Landscaper
// forbids the clash when it validates installation templates). Target
// lists and maps are left out: Landscaper stores their elements under the
// import name, so which element it would show is undefined.
func (b *Blueprint) withOwnImports(imports map[string]any, dataObjects map[string]any, targets map[string]any) (map[string]any, map[string]any) {
	data := map[string]any{}
	withTargets := map[string]any{}
	var add func(defs []ImportDefinition)
	add = func(defs []ImportDefinition) {
		for _, d := range defs {
			v, ok := imports[d.Name]
			if !ok {
				continue
			}
			switch d.Type {
			case ImportTypeData:
				data[d.Name] = v
			case ImportTypeTarget:
				withTargets[d.Name] = v
			}
			add(d.Imports)
		}
	}
	add(b.Imports)
	for k, v := range dataObjects {
		data[k] = v
	}
	for k, v := range targets {
		withTargets[k] = v
	}
	return data, withTargets
}

// mergeDeep merges b into a: objects merge key by key at every depth,
// anything else in b replaces what a holds (Landscaper's merge of export
// execution outputs). Neither input is modified.
func mergeDeep(a, b map[string]any) map[string]any {
	out := make(map[string]any, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		bm, bIsMap := v.(map[string]any)
		am, aIsMap := out[k].(map[string]any)
		if bIsMap && aIsMap {
			out[k] = mergeDeep(am, bm)
			continue
		}
		out[k] = v
	}
	return out
}
