package installation

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// init is Init (ARCHITECTURE.md, "Installation flow"): wait for the
// predecessors and resolve the imports, render the blueprint (unless the
// job started from a RenderedTree that did), store the imports hash and
// targets, delete orphaned subinstallations and prepare the subobjects.
func (r *run) init() error {
	if r.j.Interrupted() {
		return r.j.InterruptError()
	}
	rd := r.spec.rendering
	if rd == nil {
		imports, err := r.spec.Imports()
		if err != nil {
			return err
		}
		if r.j.Interrupted() {
			return r.j.InterruptError()
		}
		if rd, err = render(r.j.Context(), r.spec, imports, r.node.State); err != nil {
			return err
		}
	}
	r.rendering = rd
	prevTargets := r.node.Targets
	r.node.ImportsHash = rd.importsHash()
	r.node.Targets = snapshot.TargetImports{Single: rd.imports.Targets, Lists: rd.imports.TargetLists, Maps: rd.imports.TargetMaps}
	// Keep the executions' new state even if the job fails later on.
	r.node.State = mergeState(r.node.State, rd.rendered.State)
	children := r.newChildren(rd.subs)
	if err := r.deleteOrphans(children); err != nil {
		return err
	}
	r.children = children
	r.execSpec = execution.Spec{Path: r.spec.Path, Items: rd.rendered.DeployItems, Targets: r.node.Targets,
		OrphanTargets: prevTargets, Files: r.spec.Blueprint.Files, WriteOnly: r.spec.WriteOnly}
	return nil
}

// mapImports adds the values of the import data mappings to the data
// imports; mapped names win over imported ones.
func mapImports(ctx context.Context, limits template.Limits, in blueprint.Imports, mappings map[string]json.RawMessage) (blueprint.Imports, error) {
	if len(mappings) == 0 {
		return in, nil
	}
	values, err := importValues(in)
	if err != nil {
		return in, err
	}
	mapped, err := blueprint.MapImportData(ctx, limits, mappings, values)
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

// newChildren pairs the rendered subinstallations with what the previous
// job recorded of them.
func (r *run) newChildren(subs []*subSpec) []*child {
	prev := map[string]*snapshot.Installation{}
	for _, sub := range r.node.Subinstallations {
		prev[sub.Name] = sub
	}
	children := make([]*child, len(subs))
	for i, s := range subs {
		children[i] = &child{subSpec: s, prev: prev[s.tmpl.Name], done: make(chan struct{})}
	}
	for i, s := range subs {
		for _, p := range s.preds {
			children[i].preds = append(children[i].preds, children[p])
		}
	}
	return children
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
