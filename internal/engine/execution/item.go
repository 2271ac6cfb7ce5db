package execution

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/dag"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/job"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// applyItem is one deploy item's Progressing: trigger it with the job ID,
// call its deployer (retrying transient errors with backoff, bounded by the
// item's timeout) and record what exists even when it fails.
func (r *run) applyItem(it *snapshot.DeployItem) outcome {
	unchanged := it.UpdateOnChangeOnly && it.Phase == api.DeployItemPhaseSucceeded &&
		it.AppliedConfigHash == it.ConfigHash && len(it.ProviderStatus) > 0
	it.JobID, it.Phase, it.LastError = r.j.ID, api.DeployItemPhaseProgressing, nil
	r.j.Log.Info("deploy item started", "deployItem", it.ID, "type", it.Type, "jobID", r.j.ID)
	start := time.Now()
	var err error
	if !unchanged { // updateOnChangeOnly items are applied only when their config changed
		err = r.callApply(it)
	}
	it.JobIDFinished = r.j.ID
	status := dag.Succeeded
	if err != nil {
		it.Phase, status = api.DeployItemPhaseFailed, dag.Failed
		it.LastError = lastError("Reconcile", err)
	} else {
		it.Phase, it.AppliedConfigHash = api.DeployItemPhaseSucceeded, it.ConfigHash
	}
	r.j.Log.Info("deploy item finished", "deployItem", it.ID, "phase", string(it.Phase), "duration", time.Since(start).String())
	return outcome{name: it.Name, item: it, status: status}
}

func (r *run) callApply(it *snapshot.DeployItem) error {
	d, target, err := r.resolve(it)
	if err != nil {
		return err
	}
	if err := r.j.Acquire(); err != nil {
		return err
	}
	defer r.j.Release()
	timeout := it.Timeout.Effective()
	ctx, cancel := r.j.CallContext(timeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		res, err := r.bounded(ctx, func() (deployer.Result, error) {
			return d.Apply(ctx, r.deployerItem(it, target, timeout))
		})
		if len(res.ProviderStatus) > 0 {
			it.ProviderStatus = res.ProviderStatus // what exists, even on error
		}
		if err == nil {
			it.Exports = res.Exports
			return nil
		}
		if err := r.stop(ctx, err, attempt, timeout, "Progressing"); err != nil {
			return err
		}
	}
}

// deleteItem returns the worker of one deploy item's deletion.
func (r *run) deleteItem(opts deployer.DeleteOptions) func(*snapshot.DeployItem) outcome {
	return func(it *snapshot.DeployItem) outcome {
		it.JobID, it.Phase, it.LastError = r.j.ID, api.DeployItemPhaseDeleting, nil
		r.j.Log.Info("deploy item delete started", "deployItem", it.ID, "type", it.Type, "withoutUninstall", opts.WithoutUninstall, "jobID", r.j.ID)
		err := r.callDelete(it, opts)
		it.JobIDFinished = r.j.ID
		if err != nil {
			it.Phase, it.LastError = api.DeployItemPhaseDeleteFailed, lastError("Delete", err)
			r.j.Log.Info("deploy item delete finished", "deployItem", it.ID, "phase", string(it.Phase))
			return outcome{name: it.Name, item: it, status: dag.Failed}
		}
		r.j.Log.Info("deploy item delete finished", "deployItem", it.ID, "phase", "Deleted")
		return outcome{name: it.Name, status: dag.Gone}
	}
}

func (r *run) callDelete(it *snapshot.DeployItem, opts deployer.DeleteOptions) error {
	d, target, err := r.resolve(it)
	if err != nil {
		return err
	}
	if err := r.j.Acquire(); err != nil {
		return err
	}
	defer r.j.Release()
	timeout := it.Timeout.Effective()
	ctx, cancel := r.j.CallContext(timeout)
	defer cancel()
	for attempt := 0; ; attempt++ {
		_, err := r.bounded(ctx, func() (deployer.Result, error) {
			return deployer.Result{}, d.Delete(ctx, r.deployerItem(it, target, timeout), opts)
		})
		if err == nil {
			return nil
		}
		if err := r.stop(ctx, err, attempt, timeout, "Deleting"); err != nil {
			return err
		}
	}
}

// bounded runs one deployer call. Deployers must return promptly once ctx
// ends; one that does not gets Grace more (seed 003's abort timeout) and
// is then given up, so an interrupt or timeout always returns. Its late
// result is dropped, never written anywhere.
func (r *run) bounded(ctx context.Context, call func() (deployer.Result, error)) (deployer.Result, error) {
	type returned struct {
		res deployer.Result
		err error
	}
	done := make(chan returned, 1)
	go func() {
		res, err := call()
		done <- returned{res, err}
	}()
	select {
	case ret := <-done:
		return ret.res, ret.err
	case <-ctx.Done():
	}
	abort := time.NewTimer(r.j.Grace)
	defer abort.Stop()
	select {
	case ret := <-done:
		return ret.res, ret.err
	case <-abort.C:
		return deployer.Result{}, failure.Terminalf("AbortTimeout",
			"the deployer did not return within %s after the call was cancelled (%v); what it does from now on is not recorded", r.j.Grace, context.Cause(ctx))
	}
}

func (r *run) resolve(it *snapshot.DeployItem) (deployer.Deployer, *api.Target, error) {
	d, err := r.j.Registry.Lookup(it.Type)
	if err != nil {
		return nil, nil, fmt.Errorf("deploy item %s: %w", it.ID, err)
	}
	target, err := r.spec.Targets.Select(it.Target)
	if err != nil {
		return nil, nil, failure.NewTerminal("TargetNotFound", fmt.Errorf("deploy item %s: %w", it.ID, err))
	}
	return d, target, nil
}

func (r *run) deployerItem(it *snapshot.DeployItem, target *api.Target, timeout time.Duration) deployer.Item {
	return deployer.Item{ID: it.ID, Name: it.Name, Type: it.Type, Target: target, Config: it.Config,
		Timeout: timeout, ProviderStatus: it.ProviderStatus, Files: r.spec.Files}
}

// stop decides after a failed deployer call: nil means retry (after the
// backoff pause); otherwise the error that ends the item. The order
// matters: an interrupt or a timeout explains a cancelled call better than
// the error the deployer made of it.
func (r *run) stop(ctx context.Context, err error, attempt int, timeout time.Duration, phaseName string) error {
	switch {
	case r.j.Interrupted():
		return failure.Terminalf(job.ReasonInterrupted, "interrupted while %s: %v", phaseName, err)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return failure.Terminalf("ProgressingTimeout", "aborted: %s took longer than the timeout of %s: %v", phaseName, timeout, err)
	case failure.IsTerminal(err):
		return err
	case !r.j.Backoff.Retry(ctx, attempt):
		if r.j.Interrupted() {
			return failure.Terminalf(job.ReasonInterrupted, "interrupted while %s: %v", phaseName, err)
		}
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return failure.Terminalf("ProgressingTimeout", "aborted: %s took longer than the timeout of %s: %v", phaseName, timeout, err)
		}
		return fmt.Errorf("giving up after %d retries: %w", attempt, err)
	}
	return nil
}

func lastError(operation string, err error) *snapshot.Error {
	return snapshot.NewError(operation, err)
}
