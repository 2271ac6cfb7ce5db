package installation

import (
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
)

// completing is Completing (ARCHITECTURE.md, "Installation flow"):
// collect the exports (export executions over the deploy items' and
// subinstallations' exports, then the export data mappings). Landscaper
// also fails here when the imports changed during the job; in a
// synchronous job they cannot. Successors need no trigger here: they wait
// for this installation's done channel in their Init.
func (r *run) completing() error {
	rendered := r.rendering.rendered
	in := blueprint.ExportInput{
		Imports:     rendered.Imports,
		DeployItems: map[string]map[string]any{},
		DataObjects: map[string]any{},
		Targets:     map[string]api.Target{},
		Component:   r.spec.Component,
		State:       r.node.State,
		Cluster:     r.j.Clusters,
	}
	if r.node.Execution != nil {
		for _, it := range r.node.Execution.DeployItems {
			in.DeployItems[it.Name] = orEmpty(it.Exports)
		}
	}
	published := newScope(blueprint.Imports{})
	for _, c := range r.children {
		published.publish(c.result, c.tmpl.Exports)
	}
	in.DataObjects, in.Targets = published.data, published.targets
	exported, err := r.spec.Blueprint.RenderExports(r.j.Context(), in)
	if err != nil {
		return fmt.Errorf("rendering exports: %w", err)
	}
	mapped, err := blueprint.MapExportData(r.j.Context(), r.spec.Blueprint.Limits(), r.spec.ExportDataMappings, exported.Data, rendered.Imports)
	if err != nil {
		return fmt.Errorf("exportDataMappings: %w", err)
	}
	data := make(map[string]any, len(exported.Data)+len(mapped))
	for k, v := range exported.Data {
		data[k] = v
	}
	for k, v := range mapped {
		data[k] = v
	}
	r.node.Exports, r.node.TargetExports = nilIfEmpty(data), nil
	for name, t := range exported.Targets {
		if t.Metadata.Name == "" {
			t.Metadata.Name = name // until a parent scope renames it
		}
		if r.node.TargetExports == nil {
			r.node.TargetExports = map[string]api.Target{}
		}
		r.node.TargetExports[name] = t
	}
	r.node.State = mergeState(rendered.State, exported.State)
	return nil
}

func mergeState(parts ...map[string]json.RawMessage) map[string]json.RawMessage {
	out := map[string]json.RawMessage{}
	for _, p := range parts {
		for k, v := range p {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func orEmpty(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

func nilIfEmpty(m map[string]any) map[string]any {
	if len(m) == 0 {
		return nil
	}
	return m
}
