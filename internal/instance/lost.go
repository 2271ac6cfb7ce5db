package instance

import (
	"context"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// A state that lost its snapshot (a lost or restored state, an import,
// the destroy of a replaced tainted instance) is rebuilt from the
// installation's inventory in the target clusters, which records what
// each deploy item deployed.

// Recorded is what root installation root's inventory records in the
// clusters of targets (the target imports of its configuration): for the
// destroy of a replaced tainted instance, which arrives without its
// snapshot. Nil when no cluster records anything.
func (r Runner) Recorded(ctx context.Context, root string, targets []api.Target) (*engine.Snapshot, error) {
	return inventory.Load(ctx, r.Pool, root, targets)
}

// Targets are all target imports of imports: the clusters an
// installation's inventory is read from.
func Targets(imports blueprint.Imports) []api.Target {
	var targets []api.Target
	for _, t := range imports.Targets {
		targets = append(targets, t)
	}
	for _, l := range imports.TargetLists {
		targets = append(targets, l...)
	}
	for _, m := range imports.TargetMaps {
		for _, t := range m {
			targets = append(targets, t)
		}
	}
	return targets
}

// settleLostState ends a job that started from a lost state: what the
// inventories it met record but it did not deploy again is deleted when
// the job succeeded (a failed job deletes nothing more), and whatever is
// still deployed is added to snap, so the state records it.
func settleLostState(ctx context.Context, e *engine.Engine, rec *inventory.Recorder, snap *engine.Snapshot, deleteLeftovers bool) error {
	left := rec.Settle(snap)
	if left.Empty() {
		return nil
	}
	var err error
	if deleteLeftovers {
		if left, err = e.Delete(ctx, left, engine.DeleteOptions{}); err != nil {
			err = fmt.Errorf("deleting what the installation inventory records but the blueprint no longer renders: %w", err)
		}
	}
	inventory.Merge(snap, left)
	return err
}
