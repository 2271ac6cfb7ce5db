package installation

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// init is seed 000's Init: wait for the predecessors and resolve the
// imports, store their hash, render the blueprint, validate what it
// rendered, delete orphaned subinstallations and prepare the subobjects.
func (r *run) init(context.Context) error {
	if r.j.Interrupted() {
		return r.j.InterruptError()
	}
	imports, err := r.spec.Imports()
	if err != nil {
		return err
	}
	if r.j.Interrupted() {
		return r.j.InterruptError()
	}
	if imports, err = mapImports(imports, r.spec.ImportDataMappings); err != nil {
		return fmt.Errorf("importDataMappings: %w", err)
	}
	r.imports = imports
	prevTargets := r.node.Targets
	r.node.ImportsHash = snapshot.Hash(imports)
	r.node.Targets = snapshot.TargetImports{Single: imports.Targets, Lists: imports.TargetLists, Maps: imports.TargetMaps}
	rendered, err := r.spec.Blueprint.Render(blueprint.RenderInput{Imports: imports, Component: r.spec.Component, State: r.node.State})
	if err != nil {
		return fmt.Errorf("rendering blueprint: %w", err)
	}
	r.rendered = rendered
	// Keep the executions' new state even if the job fails later on.
	r.node.State = mergeState(r.node.State, rendered.State)
	if err := execution.Validate(rendered.DeployItems); err != nil {
		return failure.NewTerminal("InvalidDeployItems", err)
	}
	children, err := r.prepareChildren(rendered.Subinstallations)
	if err != nil {
		return err
	}
	if err := r.deleteOrphans(children); err != nil {
		return err
	}
	r.children = children
	r.execSpec = execution.Spec{Path: r.spec.Path, Items: rendered.DeployItems, Targets: r.node.Targets,
		OrphanTargets: prevTargets, Files: r.spec.Blueprint.Files}
	return nil
}

// mapImports adds the values of the import data mappings to the data
// imports; mapped names win over imported ones.
func mapImports(in blueprint.Imports, mappings map[string]json.RawMessage) (blueprint.Imports, error) {
	if len(mappings) == 0 {
		return in, nil
	}
	values, err := importValues(in)
	if err != nil {
		return in, err
	}
	mapped, err := blueprint.MapImportData(mappings, values)
	if err != nil {
		return in, err
	}
	out := in
	out.Data = make(map[string]any, len(in.Data)+len(mapped))
	for k, v := range in.Data {
		out.Data[k] = v
	}
	for k, v := range mapped {
		out.Data[k] = v
	}
	return out, nil
}

// importValues are the imports as data mappings see them: data values and
// targets as generic objects, by import name.
func importValues(in blueprint.Imports) (map[string]any, error) {
	values := make(map[string]any, len(in.Data)+len(in.Targets))
	for k, v := range in.Data {
		values[k] = v
	}
	for name, v := range map[string]any{"targets": in.Targets, "lists": in.TargetLists, "maps": in.TargetMaps} {
		b, err := json.Marshal(v)
		if err != nil {
			return nil, fmt.Errorf("encoding target imports (%s): %w", name, err)
		}
		var generic map[string]any
		if err := json.Unmarshal(b, &generic); err != nil {
			return nil, fmt.Errorf("encoding target imports (%s): %w", name, err)
		}
		for k, t := range generic {
			values[k] = t
		}
	}
	return values, nil
}

// prepareChildren orders the rendered subinstallations by data flow (a
// cycle is an error here, before anything of them is deployed) and loads
// their blueprints.
func (r *run) prepareChildren(templates []api.SubinstallationTemplate) ([]*child, error) {
	imports, exports := map[string][]string{}, map[string][]string{}
	names := make([]string, len(templates))
	for i, t := range templates {
		names[i] = t.Name
		imports[t.Name], exports[t.Name] = importRefs(t.Imports), exportRefs(t.Exports)
	}
	nodes, err := siblingGraph(imports, exports, names)
	if err != nil {
		return nil, failure.NewTerminal("InvalidSubinstallations", err)
	}
	prev := map[string]*snapshot.Installation{}
	for _, sub := range r.node.Subinstallations {
		prev[sub.Name] = sub
	}
	byName := map[string]*child{}
	children := make([]*child, len(templates))
	for i, t := range templates {
		bp, err := r.spec.Blueprint.Subinstallation(t, r.spec.Component)
		if err != nil {
			return nil, failure.NewTerminal("InvalidBlueprint", fmt.Errorf("subinstallation %q: %w", t.Name, err))
		}
		c := &child{tmpl: t, blueprint: bp, prev: prev[t.Name], done: make(chan struct{}),
			importRefs: imports[t.Name], exportRefs: exports[t.Name]}
		children[i], byName[t.Name] = c, c
	}
	for i, n := range nodes {
		for _, d := range n.DependsOn {
			children[i].preds = append(children[i].preds, byName[d])
		}
	}
	return children, nil
}

// deleteOrphans deletes the subinstallations of the previous job that the
// blueprint no longer renders, before the new subobjects are created.
func (r *run) deleteOrphans(children []*child) error {
	wanted := map[string]bool{}
	for _, c := range children {
		wanted[c.tmpl.Name] = true
	}
	var orphans, kept []*snapshot.Installation
	for _, sub := range r.node.Subinstallations {
		if wanted[sub.Name] {
			kept = append(kept, sub)
		} else {
			orphans = append(orphans, sub)
		}
	}
	if len(orphans) == 0 {
		return nil
	}
	remaining, err := deleteSiblings(r.j, orphans, deployer.DeleteOptions{})
	kept = append(kept, remaining...)
	sort.Slice(kept, func(i, k int) bool { return kept[i].Name < kept[k].Name })
	r.node.Subinstallations = kept
	if err != nil {
		return failure.NewTerminal("DeleteFailed", fmt.Errorf("deleting orphaned subinstallations: %w", err))
	}
	return nil
}
