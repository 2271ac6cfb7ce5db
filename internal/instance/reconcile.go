package instance

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// Reconcile runs a new job on root installation root outside its
// resource (the landscaper_reconcile action): every deploy item its
// inventory records in the clusters of targets is applied again with the
// configuration recorded there (engine.Replay), as the instance that owns
// the inventory, and the inventory records what the job leaves.
//
// The records are the job's input, and whoever may write Secrets where
// they are can change them: the job reads only records signed with key,
// the installation's reconcile key (inventory.Recorder.SignWith), and
// fails before it applies anything when one is not. It signs what it
// writes with key too.
//
// The resource's state is not touched (an action cannot write it): the
// job's outcome — phase, job ID, failed items and their errors — is
// recorded in the inventory (inventory.Reconciled), where the resource's
// next refresh reads it (Reconciled), so a failed job shows as phase
// Failed and the next plan proposes the retry. The error lists every
// failed deploy item.
func (r Runner) Reconcile(ctx context.Context, root string, targets []api.Target, key []byte) (*engine.Snapshot, error) {
	if len(key) != inventory.KeySize {
		return nil, fmt.Errorf("installation %s: reconcile_key must be the installation's reconcile_key (%d bytes), "+
			"e.g. landscaper_installation.<name>.reconcile_key", root, inventory.KeySize)
	}
	owner, err := inventory.Owner(ctx, r.Pool, root, targets)
	if err != nil {
		return nil, err
	}
	e, rec, finish := r.recorded(ctx, root, owner)
	rec.SignWith(key, true)
	prev, err := rec.Rebuild(ctx, targets)
	if err != nil {
		return nil, errors.Join(err, finish())
	}
	if owner == "" || prev.Empty() {
		return nil, errors.Join(fmt.Errorf("installation %s: no inventory found in the clusters of the given targets (%d): "+
			"nothing was deployed there, or the targets are not the installation's target imports", root, len(targets)),
			ignoredError(rec.Ignored()), finish())
	}
	snap, err := e.Replay(ctx, prev)
	rec.Reconciled(reconciledOf(snap, err))
	err = errors.Join(err, finish())
	if err == nil && snap.RootPhase() != api.InstallationPhaseSucceeded {
		err = fmt.Errorf("installation %s ended in phase %s", root, snap.RootPhase())
	}
	if err != nil {
		err = failureReport(snap, err)
	}
	return snap, err
}

// reconciledOf is what the inventory records of a reconcile job that
// left snap with err: the root's phase and last error, and every failed
// deploy item of the tree with its last error.
func reconciledOf(snap *engine.Snapshot, err error) inventory.Reconciled {
	o := inventory.Reconciled{JobID: snap.Root.JobID, Phase: snap.RootPhase()}
	if err != nil && o.Phase == api.InstallationPhaseSucceeded {
		o.Phase = api.InstallationPhaseFailed
	}
	if o.Phase == api.InstallationPhaseSucceeded {
		return o
	}
	if snap.Root.LastError != nil {
		o.Message = snap.Root.LastError.Message
	}
	o.Errors = map[string]string{}
	for _, in := range snap.Installations() {
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			if it.Phase != api.DeployItemPhaseSucceeded {
				msg := string(it.Phase)
				if it.LastError != nil {
					msg = it.LastError.Message
				}
				o.Errors[it.ID] = msg
			}
		}
	}
	return o
}

// Reconciled returns the outcome of the newest landscaper_reconcile job
// of root installation root that its parents in the clusters of targets
// record signed with key (inventory.ReadReconciled); nil when there is none.
func (r Runner) Reconciled(ctx context.Context, root string, targets []api.Target, key []byte) (*inventory.Reconciled, error) {
	return inventory.ReadReconciled(ctx, r.Pool, root, targets, key)
}

// ignoredError reports the Secrets that had an inventory's name but were
// not the installation's; nil when there were none.
func ignoredError(ignored []string) error {
	if len(ignored) == 0 {
		return nil
	}
	return errors.New(strings.Join(ignored, "\n"))
}

// Reconciled is the outcome of a landscaper_reconcile job as the
// inventory records it; the provider reads it through Runner.Reconciled.
type Reconciled = inventory.Reconciled

// ReconcileKeySize is the length in bytes of an installation's reconcile
// key, the key its inventory records are signed with.
const ReconcileKeySize = inventory.KeySize
