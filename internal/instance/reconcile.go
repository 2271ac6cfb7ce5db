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
// the inventory, and the inventory records what the job leaves. The
// resource's state is not touched: its next refresh compares what is
// deployed with its snapshot, and what the job could not put back shows
// as drift, which its next plan repairs. The error lists every failed
// deploy item.
func (r Runner) Reconcile(ctx context.Context, root string, targets []api.Target) (*engine.Snapshot, error) {
	owner, err := inventory.Owner(ctx, r.Pool, root, targets)
	if err != nil {
		return nil, err
	}
	prev, ignored, err := inventory.Load(ctx, r.Pool, root, owner, targets)
	if err != nil {
		return nil, err
	}
	if owner == "" || prev.Empty() {
		return nil, errors.Join(fmt.Errorf("installation %s: no inventory found in the clusters of the given targets (%d): "+
			"nothing was deployed there, or the targets are not the installation's target imports", root, len(targets)),
			ignoredError(ignored))
	}
	e, _, finish := r.recorded(ctx, root, owner)
	snap, err := e.Replay(ctx, prev)
	err = errors.Join(err, finish())
	if err == nil && snap.RootPhase() != api.InstallationPhaseSucceeded {
		err = fmt.Errorf("installation %s ended in phase %s", root, snap.RootPhase())
	}
	if err != nil {
		err = failureReport(snap, err)
	}
	return snap, err
}

// ignoredError reports the Secrets that had an inventory's name but were
// not the installation's; nil when there were none.
func ignoredError(ignored []string) error {
	if len(ignored) == 0 {
		return nil
	}
	return errors.New(strings.Join(ignored, "\n"))
}
