package execution

import (
	"fmt"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/dag"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// applyItem is one deploy item's Progressing: trigger it with the job ID,
// call its deployer (retrying transient errors with backoff, bounded by the
// item's timeout) and record what exists even when it fails.
func (r *run) applyItem(it *snapshot.DeployItem) outcome {
	// A config holding a write-only value has the same fingerprint
	// whatever the value: the hash cannot say it is unchanged.
	unchanged := it.UpdateOnChangeOnly && it.Phase == api.DeployItemPhaseSucceeded &&
		it.AppliedConfigHash == it.ConfigHash && len(it.ProviderStatus) > 0 && !r.spec.WriteOnly.Held(it.Config)
	it.JobID, it.Phase, it.LastError = r.j.ID, api.DeployItemPhaseProgressing, nil
	r.j.Log.Info("deploy item started", "deployItem", it.ID, "type", it.Type, "jobID", r.j.ID)
	start := time.Now()
	var err error
	switch {
	case r.spec.Recorded && it.Masked():
		err = failure.NewTerminal("WriteOnlyNotRecorded", fmt.Errorf("deploy item %s: its configuration held write-only values (imports.data_wo), "+
			"which are recorded nowhere: apply the installation with them (change data_wo_version) to apply it again", it.ID))
	case !unchanged: // updateOnChangeOnly items are applied only when their config changed
		err = r.callApply(it)
	}
	it.JobIDFinished = r.j.ID
	status := dag.Succeeded
	if err != nil {
		it.Phase, status = api.DeployItemPhaseFailed, dag.Failed
		it.LastError = snapshot.NewError("Reconcile", err)
	} else {
		// What the deployer returned now is its own account of what it
		// applied, no longer what an inventory said.
		it.Phase, it.AppliedConfigHash, it.Rebuilt = api.DeployItemPhaseSucceeded, it.ConfigHash, false
	}
	r.j.Log.Info("deploy item finished", "deployItem", it.ID, "phase", string(it.Phase), "duration", time.Since(start).String())
	return outcome{name: it.Name, item: it, status: status}
}

// forgettable reports whether an item whose type no deployer serves can
// be forgotten without a call: no deployer of that type can have deployed
// anything unless it recorded a provider status, and delete-without-
// uninstall leaves everything in place anyway. Such an item (a failed
// apply of an unknown type, from a snapshot written before the plan
// checked types) must not block the deletion of the rest. An item of a
// known type is always handed to its deployer, even with no provider
// status: an Apply that never returned may have created labelled objects.
func (r *run) forgettable(it *snapshot.DeployItem, opts deployer.DeleteOptions) bool {
	if _, err := r.j.Registry.Lookup(it.Type); err == nil {
		return false
	}
	return opts.WithoutUninstall || len(it.ProviderStatus) == 0
}

// deleteItem returns the worker of one deploy item's deletion.
func (r *run) deleteItem(opts deployer.DeleteOptions) func(*snapshot.DeployItem) outcome {
	return func(it *snapshot.DeployItem) outcome {
		it.JobID, it.Phase, it.LastError = r.j.ID, api.DeployItemPhaseDeleting, nil
		r.j.Log.Info("deploy item delete started", "deployItem", it.ID, "type", it.Type, "withoutUninstall", opts.WithoutUninstall, "jobID", r.j.ID)
		var err error
		if !r.forgettable(it, opts) {
			err = r.callDelete(it, opts)
		}
		it.JobIDFinished = r.j.ID
		if err != nil {
			it.Phase, it.LastError = api.DeployItemPhaseDeleteFailed, snapshot.NewError("Delete", err)
			r.j.Log.Info("deploy item delete finished", "deployItem", it.ID, "phase", string(it.Phase))
			return outcome{name: it.Name, item: it, status: dag.Failed}
		}
		r.j.Log.Info("deploy item delete finished", "deployItem", it.ID, "phase", "Deleted")
		return outcome{name: it.Name, status: dag.Gone}
	}
}
