package instance

import (
	"context"
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

// predictExports asks the item's deployer what its exports will be,
// given the objects its preview rendered and, with plan_diff = "server",
// those the dry-run returned; nil when the deployer cannot say.
func (r Runner) predictExports(itemType string, config json.RawMessage, rendered, served []deployer.PreviewObject) *deployer.PredictedExports {
	if r.Engine == nil || r.Engine.Deployers == nil {
		return nil
	}
	p, ok := r.Engine.Deployers.ExportPredictor(itemType)
	if !ok {
		return nil
	}
	pe, err := p.PredictExports(config, rendered, served)
	if err != nil {
		return nil
	}
	return &pe
}

// PredictExports is the root installation's data exports as a plan
// knows them (installation.RenderedTree.PredictExports): shown are the
// previews the plan made, and the root's deploy items they do not cover
// (those whose text the plan keeps from the state) are previewed here
// too, with opts, for their objects alone. False when the plan cannot
// say which exports the root will have.
func (r Runner) PredictExports(ctx context.Context, tree *engine.RenderedTree, prev *engine.Snapshot, shown []ItemText, opts PreviewOptions) (blueprint.PlannedExports, bool) {
	if tree == nil || len(tree.Installations) == 0 {
		return blueprint.PlannedExports{}, false
	}
	root := tree.Installations[0].Path
	items := map[string]deployer.PredictedExports{}
	if bp := tree.Root().Blueprint; bp == nil || len(bp.ExportExecutions) == 0 {
		// Nothing reads the items' exports: the root exports nothing.
		return tree.PredictExports(ctx, items, nil)
	}
	for _, t := range shown {
		if t.Err == nil && t.Exports != nil {
			items[t.ID] = *t.Exports
		}
	}
	missing := map[string]bool{}
	for _, it := range tree.Items {
		if _, done := items[it.ID]; done || it.Installation != root {
			continue
		}
		// An item that exports nothing needs no preview: asked without
		// objects, its deployer leaves no key unknown.
		if pe := r.predictExports(it.Type, it.Config, nil, nil); pe != nil && len(pe.Unknown) == 0 {
			items[it.ID] = *pe
			continue
		}
		missing[it.ID] = true
	}
	if len(missing) > 0 {
		opts.Skip = func(id string) bool { return !missing[id] }
		opts.Marks = nil // their texts are not shown: record no marks for them
		for _, t := range r.Preview(ctx, tree, prev, opts) {
			if t.Err == nil && t.Exports != nil {
				items[t.ID] = *t.Exports
			}
		}
	}
	if prev.Empty() {
		return tree.PredictExports(ctx, items, nil)
	}
	return tree.PredictExports(ctx, items, prev.Root)
}
