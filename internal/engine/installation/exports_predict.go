package installation

import (
	"context"
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// PredictExports is the root's data exports as a plan can know them
// (blueprint.PredictExports): Completing's inputs at plan, with items
// the deployers predicted (by item ID; an item missing from items is
// known only after apply) and the subinstallations' exports unknown.
// False when the plan cannot say which exports the root will have: the
// root did not render, or export data mappings (Spiff, not analysed)
// map the exports.
func (t *RenderedTree) PredictExports(ctx context.Context, items map[string]deployer.PredictedExports, prev *snapshot.Installation) (blueprint.PlannedExports, bool) {
	rd := t.root.rendering
	if rd == nil || t.root.Blueprint == nil || len(t.root.ExportDataMappings) > 0 {
		return blueprint.PlannedExports{}, false
	}
	in := blueprint.ExportInput{
		Imports:     rd.rendered.Imports,
		DeployItems: map[string]map[string]any{},
		DataObjects: map[string]any{},
		Component:   t.root.Component,
	}
	var prevState map[string]json.RawMessage
	if prev != nil {
		prevState = prev.State
	}
	// What Completing sees: the last job's state under this job's
	// execution states (Init merges them the same way).
	in.State = mergeState(prevState, rd.rendered.State)
	var unknown [][]string
	for _, it := range rd.rendered.DeployItems {
		p, ok := items[t.root.Path+"/"+it.Name]
		if !ok {
			in.DeployItems[it.Name] = map[string]any{}
			unknown = append(unknown, []string{"deployitems", it.Name})
			continue
		}
		known := make(map[string]any, len(p.Known))
		for k, v := range p.Known {
			known[k] = v
		}
		in.DeployItems[it.Name] = known
		for _, k := range p.Unknown {
			unknown = append(unknown, []string{"deployitems", it.Name, k})
		}
	}
	for _, s := range rd.subs {
		for _, ref := range s.exportRefs {
			unknown = append(unknown, []string{"dataobjects", ref}, []string{"targets", ref})
		}
	}
	return t.root.Blueprint.PredictExports(ctx, in, unknown)
}
