package installation

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/dag"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// Plan is the tree's deploy items as far as they can be rendered without
// a cluster and without running anything.
type Plan struct {
	Items []PlannedItem
	// Unknown are installations whose imports come from exports that
	// exist only after apply; their deploy items are not in Items.
	Unknown []UnknownInstallation
	// Warnings are the blueprints' warnings (unknown fields …).
	Warnings []string
}

// PlannedItem is one deploy item of the plan. Items come per installation,
// parents before children, and within one installation in dependency
// order (rendered order among independent items).
type PlannedItem struct {
	ID           string
	Installation string
	Name         string
	Type         string
	Target       *api.TargetSelector
	DependsOn    []string
	ConfigHash   string
	// Config is the rendered configuration; it may hold secrets.
	Config json.RawMessage
}

// UnknownInstallation says why an installation cannot be planned yet.
type UnknownInstallation struct {
	Path   string
	Reason string
}

// PlanTree renders spec and its subtree purely. Render-time errors
// (duplicate names, unknown dependsOn, cycles between deploy items or
// siblings, template errors) are returned joined, each naming its
// installation; what rendered is in the plan either way.
func PlanTree(spec Spec, prev *snapshot.Installation) (*Plan, error) {
	p := &Plan{}
	err := p.add(spec, prev)
	return p, err
}

func (p *Plan) add(spec Spec, prev *snapshot.Installation) error {
	imports, err := spec.Imports()
	if err != nil {
		return fmt.Errorf("installation %s: %w", spec.Path, err)
	}
	if imports, err = mapImports(imports, spec.ImportDataMappings); err != nil {
		return fmt.Errorf("installation %s: importDataMappings: %w", spec.Path, err)
	}
	in := blueprint.RenderInput{Imports: imports, Component: spec.Component}
	if prev != nil {
		in.State = prev.State
	}
	p.Warnings = append(p.Warnings, prefixed(spec.Path, spec.Blueprint.Warnings)...)
	rendered, err := spec.Blueprint.Render(in)
	if err != nil {
		return fmt.Errorf("installation %s: rendering blueprint: %w", spec.Path, err)
	}
	p.Warnings = append(p.Warnings, prefixed(spec.Path, rendered.Warnings)...)
	var errs []error
	if err := execution.Validate(rendered.DeployItems); err != nil {
		errs = append(errs, fmt.Errorf("installation %s: %w", spec.Path, err))
	}
	nodes := make([]dag.Node, len(rendered.DeployItems))
	for i, t := range rendered.DeployItems {
		nodes[i] = dag.Node{Name: t.Name, DependsOn: t.DependsOn}
	}
	for _, i := range dag.Order(nodes) {
		t := rendered.DeployItems[i]
		p.Items = append(p.Items, PlannedItem{ID: spec.Path + "/" + t.Name, Installation: spec.Path, Name: t.Name,
			Type: t.Type, Target: t.Target, DependsOn: t.DependsOn, ConfigHash: snapshot.Hash(t.Config), Config: t.Config})
	}
	r := &run{spec: spec, node: &snapshot.Installation{}}
	if prev != nil {
		r.node.Subinstallations = prev.Subinstallations
	}
	children, err := r.prepareChildren(rendered.Subinstallations)
	if err != nil {
		return errors.Join(append(errs, fmt.Errorf("installation %s: %w", spec.Path, err))...)
	}
	base := newScope(imports)
	for _, c := range children {
		path := spec.Path + "/" + c.tmpl.Name
		if len(c.preds) > 0 {
			p.Unknown = append(p.Unknown, UnknownInstallation{Path: path,
				Reason: fmt.Sprintf("imports exports of subinstallation %q, known only after it is applied", c.preds[0].tmpl.Name)})
			continue
		}
		tmpl := c.tmpl
		sub := Spec{Path: path, Name: tmpl.Name, Blueprint: c.blueprint, Component: spec.Component,
			ImportDataMappings: tmpl.ImportDataMappings, ExportDataMappings: tmpl.ExportDataMappings,
			Imports: func() (blueprint.Imports, error) { return base.resolve(tmpl.Name, tmpl.Imports) }}
		if err := p.add(sub, c.prev); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func prefixed(path string, msgs []string) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = path + ": " + m
	}
	return out
}
