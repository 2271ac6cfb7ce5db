package instance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Runner runs the jobs of installation instances. The provider makes one
// per request; Engine and Pool are the provider instance's, shared by all
// installations of one Terraform command.
type Runner struct {
	// Engine holds the deployers, the target clusters for export
	// executions and the parallelism; each job runs a copy of it.
	Engine *engine.Engine
	// Pool has the clients of every target cluster, also the inventory's.
	Pool *target.Pool
	// Log receives the job's progress.
	Log engine.Logger
	// Keep, when set, gives what the installation's inventory keeps after
	// a job with the job's snapshot, for an import (keep.go).
	Keep func(*engine.Snapshot) json.RawMessage
	// Mask, when set, masks in a copy of the job's snapshot what may not
	// leave Terraform (write-only values) before the inventory keeps it.
	Mask func(*engine.Snapshot)
	// SignKey, when set, is the installation's reconcile key: the
	// inventory records the jobs write are signed with it
	// (inventory/sign.go), so landscaper_reconcile applies them.
	SignKey []byte
	// HoldsSecret, when set, says which deploy item configurations hold a
	// secret: the inventory keeps those sealed with a key derived from
	// SignKey, never in clear (inventory/seal.go).
	HoldsSecret func(json.RawMessage) bool
	// Pins are the digests the plan was made with of what items fetch,
	// by item ID (pins.go): an Apply whose source now serves other
	// content fails before it deploys anything of the item.
	Pins map[string]deployer.Pins
}

// engine is the Engine with the request's logger.
func (r Runner) engine() *engine.Engine {
	e := *r.Engine
	e.Log = r.Log
	return &e
}

// recorded is engine for a job that changes the clusters: its deployer
// calls carry the owning resource instance and are recorded in the
// installation's inventory (package inventory). finish waits for the
// inventory's writes; its error is the job's too.
func (r Runner) recorded(ctx context.Context, root, instance string) (e *engine.Engine, rec *inventory.Recorder, finish func() error) {
	e = r.engine()
	rec = inventory.NewRecorder(r.Pool, root, instance)
	rec.SignWith(r.SignKey, false)
	rec.SealWhen(r.HoldsSecret)
	e.Deployers = rec.Wrap(withPins(e.Deployers, r.Pins))
	return e, rec, func() error {
		// Also after an interrupt: what was deployed must be recorded.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), inventoryCloseTimeout)
		defer cancel()
		return rec.Close(ctx)
	}
}

// inventoryCloseTimeout bounds the last inventory writes of a job.
const inventoryCloseTimeout = 30 * time.Second

// Applied is what an install job leaves.
type Applied struct {
	// Snapshot records what exists after the job; nil only when nothing
	// ran (the inventory of a lost state could not be read).
	Snapshot *engine.Snapshot
	// Start is what the job started from: the previous snapshot, or what
	// the inventory recorded after a lost state.
	Start *engine.Snapshot
	// Ignored reports the Secrets that had the name of the installation's
	// inventory but were not one it wrote (inventory.Recorder.Ignored):
	// nothing they listed was used. For the user's warning.
	Ignored []string
	// Replayable: the job succeeded and its rendering may be reused by a
	// plan with the same inputs (engine.Applied.Replayable).
	Replayable bool
}

// Apply runs one install job of spec as resource instance instance,
// starting from prev. A nil prev is a lost state (or an import): the job
// starts from what the inventory records in the clusters of the target
// imports. Items deployed to other clusters (through targets a
// subinstallation exports, or a mapping makes) are found as the job
// reaches their clusters (inventory.Recorder.AdoptRecorded), and after a
// successful job what the inventories record but the job no longer
// renders is deleted (settleLostState). The error lists every failed
// deploy item.
func (r Runner) Apply(ctx context.Context, spec engine.RootSpec, prev *engine.Snapshot, instance string) (Applied, error) {
	lost := prev == nil
	e, rec, finish := r.recorded(ctx, spec.Name, instance)
	if lost {
		// The job's recorder reads the parents, so its first deployment
		// to each of their clusters does not read them again.
		rec.AdoptRecorded()
		var err error
		if prev, err = rec.Rebuild(ctx, Targets(spec.Imports)); err != nil {
			return Applied{Ignored: rec.Ignored()}, err
		}
	}
	res, err := e.ApplyJob(ctx, spec, prev)
	snap := res.Snapshot
	if lost {
		err = errors.Join(err, settleLostState(ctx, e, rec, snap, err == nil))
	}
	err = errors.Join(err, r.keep(rec, snap), finish())
	if err == nil && snap.RootPhase() != api.InstallationPhaseSucceeded {
		err = fmt.Errorf("installation %s ended in phase %s", spec.Name, snap.RootPhase())
	}
	if err != nil {
		err = failureReport(snap, err)
	}
	return Applied{Snapshot: snap, Start: prev, Ignored: rec.Ignored(), Replayable: err == nil && res.Replayable}, err
}

// Delete runs the delete job of prev as resource instance instance. The
// snapshot it returns records what remains: empty when everything is
// gone.
func (r Runner) Delete(ctx context.Context, prev *engine.Snapshot, instance string, opts engine.DeleteOptions) (*engine.Snapshot, error) {
	e, rec, finish := r.recorded(ctx, prev.Root.Path, instance)
	snap, err := e.Delete(ctx, prev, opts)
	err = errors.Join(err, r.keep(rec, snap), finish())
	if snap.Empty() {
		return snap, err
	}
	if err == nil {
		err = fmt.Errorf("installation %s ended in phase %s", prev.Root.Path, snap.RootPhase())
	}
	return snap, failureReport(snap, err)
}

// A state that lost its snapshot (a lost or restored state, an import,
// the destroy of a replaced tainted instance) is rebuilt from the
// installation's inventory in the target clusters, which records what
// each deploy item deployed.

// Recorded is what root installation root's inventory records in the
// clusters of targets (the target imports of its configuration) and in
// the homes of the engine's deployers (deployer.Homed), for resource
// instance instance: for the destroy of a replaced tainted instance,
// which arrives without its snapshot. Nil when no cluster records
// anything. ignored reports the Secrets of the inventory's name that
// were not the installation's (inventory.Rebuild).
func (r Runner) Recorded(ctx context.Context, root, instance string, targets []api.Target) (snap *engine.Snapshot, ignored []string, err error) {
	return inventory.Rebuild(ctx, r.Pool, root, instance, append(slices.Clip(targets), r.Engine.Deployers.Homes()...))
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

// failureReport lists every failed deploy item with its lastError under
// the job's error, so the apply output says what to fix.
func failureReport(s *engine.Snapshot, err error) error {
	var lines []string
	for _, in := range s.Installations() {
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			if it.LastError != nil && (it.Phase == api.DeployItemPhaseFailed || it.Phase == api.DeployItemPhaseDeleteFailed) {
				lines = append(lines, fmt.Sprintf("- deploy item %s (%s): %s", it.ID, it.Phase, it.LastError.Text()))
			}
		}
	}
	if len(lines) == 0 {
		return err
	}
	return fmt.Errorf("%w\n\nFailed deploy items:\n%s", err, strings.Join(lines, "\n"))
}
