package instance

import (
	"context"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// Drifted is what a drift check found.
type Drifted struct {
	// Items are the drifted deploy items; Reason may quote secrets.
	Items []engine.DriftedItem
	// Marked is the snapshot with the drifted items marked (snapshot
	// MarkDrifted), for private state, so that the apply repairs them
	// even when they are updateOnChangeOnly; nil when nothing needed
	// marking.
	Marked []byte
}

// Drift checks every deploy item of snap, decoded from snapBytes, for
// drift. root and comp are the blueprint and component descriptor the
// configuration names, for the deployers that read blueprint files
// (Runner.DriftReadsFiles); nil when they are not needed or cannot be loaded
// any more, and then only those deployers report an error. The snapshot
// (marked or not) is kept for the plan that follows (Decode).
func (r Runner) Drift(ctx context.Context, snap *engine.Snapshot, snapBytes []byte, root *blueprint.Blueprint, comp *blueprint.Component) (Drifted, error) {
	e := r.engine()
	// The inventory's recorder tells each item its cluster's ApplySet,
	// whose members one list per kind reads for all items.
	e.Deployers = inventory.NewRecorder(r.Pool, snap.Root.Path, "").Wrap(e.Deployers)
	items, err := e.Drift(ctx, snap, root, comp)
	if err != nil {
		return Drifted{}, err
	}
	ids := make([]string, 0, len(items))
	for _, it := range items {
		ids = append(ids, it.ID)
	}
	out := Drifted{Items: items}
	recorded := snapBytes
	if snap.MarkDrifted(ids) {
		if out.Marked, err = snapshot.Marshal(snap); err != nil {
			return Drifted{}, err
		}
		recorded = out.Marked
	}
	refreshed.put(recorded, snap.Clone()) // for the plan that follows
	return out, nil
}

// DriftReadsFiles reports whether the drift check of snap needs the
// blueprint: only when a succeeded item's deployer may read its files (a
// Helm chart in the blueprint or the component; deployer.Declared's
// ReadsFiles). Manifest items compare what their status records, so a
// refresh of manifest-only installations neither reads nor parses the
// blueprint (and its component from a registry) again: with 50
// installations that was 50 loads per refresh, ~5 % of its CPU.
func (r Runner) DriftReadsFiles(snap *engine.Snapshot) bool {
	for _, in := range snap.Installations() {
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			if it.Phase == api.DeployItemPhaseSucceeded && r.Engine.Deployers.Declared(it.Type).ReadsFiles {
				return true
			}
		}
	}
	return false
}
