package execution

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Call is one deployer call of a deploy item: its deployer and the Item it
// is given. Apply, Delete and Drift all build theirs with NewCall, so every
// call sees the same target, timeout, provider status and files.
type Call struct {
	Deployer deployer.Deployer
	Item     deployer.Item
}

// NewCall looks up the item's deployer by type and gives it target (nil
// when the item names none), which refs must allow (CheckTarget). files is
// the filesystem of the blueprint that rendered the item (nil when
// unknown); defaultTimeout is the timeout of an item whose template sets
// none (0: Landscaper's default).
func NewCall(reg *deployer.Registry, refs snapshot.ProviderRefs, target *api.Target, files fs.FS, it *snapshot.DeployItem, defaultTimeout time.Duration) (Call, error) {
	d, err := reg.Lookup(it.Type)
	if err != nil {
		return Call{}, fmt.Errorf("deploy item %s: %w", it.ID, err)
	}
	item, err := Targeted(refs, deployer.Item{ID: it.ID, Name: it.Name, Type: it.Type,
		Config: it.Config, Timeouts: deployer.Timeouts{Progressing: it.Timeout.EffectiveOr(defaultTimeout)}, ProviderStatus: it.ProviderStatus, Files: files, Rebuilt: it.Rebuilt}, target)
	if err != nil {
		return Call{}, err
	}
	return Call{Deployer: d, Item: item}, nil
}

// callApply applies an item to the target its selector names now; that
// target is recorded before the call, because even a failed call may
// have deployed something there. What exists is recorded in it even when
// the call fails.
func (r *run) callApply(it *snapshot.DeployItem) error {
	target, err := SelectTarget(r.spec.Targets, it)
	if err != nil {
		return err
	}
	if err := CheckTarget(r.j.ProviderRefs, target, it.ID); err != nil {
		return err // before it is recorded: nothing went there
	}
	if target != nil {
		recorded := *target
		it.AppliedTarget = &recorded
	}
	return r.call(it, target, "Progressing", func(ctx context.Context, c Call) (deployer.Result, error) {
		return c.Deployer.Apply(ctx, c.Item)
	})
}

// callDelete deletes an item from the target it was applied to.
func (r *run) callDelete(it *snapshot.DeployItem, opts deployer.DeleteOptions) error {
	target, err := AppliedTarget(r.spec.Targets, it)
	if err != nil {
		return err
	}
	if it.AppliedTarget == nil && len(it.ProviderStatus) == 0 && !r.j.ProviderRefs.Allows(target) {
		// An apply records its target before its call (callApply), and
		// one refused there made none: nothing of it exists anywhere, and
		// the refused target is not contacted to delete nothing.
		return nil
	}
	return r.call(it, target, "Deleting", func(ctx context.Context, c Call) (deployer.Result, error) {
		return deployer.Result{}, c.Deployer.Delete(ctx, c.Item, opts)
	})
}

// call runs one deployer call of it in a parallelism slot, bounded by the
// item's timeout, and retries transient errors (phase.Backoff.Retry). The
// item's timeouts travel with the call (deployer.Timeouts); the engine
// measures the progressing timeout from the call's start unless the
// deployer hands the item off and measures it from the pickup itself
// (deployer.HandsOff). A provider status or exports the deployer
// returned are recorded in it, also on error.
func (r *run) call(it *snapshot.DeployItem, target *api.Target, phaseName string, do func(context.Context, Call) (deployer.Result, error)) error {
	c, err := NewCall(r.j.Registry, r.j.ProviderRefs, target, r.spec.Files, it, r.j.DefaultTimeout)
	if err != nil {
		return err
	}
	if c.Item, err = WithNamedTargets(r.j.ProviderRefs, c.Item, r.spec.Targets, r.j.Registry.TargetNames(it.Type, it.Config)); err != nil {
		return err
	}
	c.Item.Timeouts.Pickup, c.Item.Timeouts.Abort = r.j.PickupTimeout, r.j.AbortTimeout
	c.Item.Context, c.Item.SharedReads, c.Item.WriteOnly = r.j.LandscaperContext, r.j.SharedReads, r.spec.WriteOnly
	measured := c.Item.Timeouts.Progressing // the engine's clock: 0 when the deployer keeps it
	if r.j.Registry.HandsOff(c.Item) {
		measured = 0
	}
	slot, err := r.j.AcquireSlot()
	if err != nil {
		return err
	}
	defer slot.Close()
	c.Item.Idle = slot.Idle // a deployer that only waits gives the slot back
	ctx, cancel := r.j.CallContext(measured)
	defer cancel()
	retries, err := r.j.Backoff.Retry(ctx, func() error {
		c.Item.ProviderStatus = it.ProviderStatus
		res, err := r.bounded(ctx, func() (deployer.Result, error) { return do(ctx, c) })
		if len(res.ProviderStatus) > 0 {
			it.ProviderStatus = res.ProviderStatus // what exists, even on error
		}
		if err == nil {
			it.Exports = res.Exports
			return nil
		}
		if r.j.Interrupted() { // nothing new after an interrupt: no retry
			return failure.NewTerminal(failure.ReasonInterrupted, err)
		}
		return err
	})
	if err != nil {
		return r.gaveUp(ctx, err, retries, measured, phaseName)
	}
	return nil
}

// bounded runs one deployer call. Deployers must return within the abort
// timeout once ctx ends; one that does not is given up (reason
// AbortTimeout) when the job says so (job.AbortWait: after an interrupt
// the abort timeout counted from the interrupt, else from the end of
// ctx), so an interrupt or timeout always returns.
// Its late result is dropped, never written anywhere.
func (r *run) bounded(ctx context.Context, call func() (deployer.Result, error)) (deployer.Result, error) {
	type returned struct {
		res deployer.Result
		err error
	}
	done := make(chan returned, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- returned{err: failure.FromPanic("the deployer", p)}
			}
		}()
		res, err := call()
		done <- returned{res, err}
	}()
	select {
	case ret := <-done:
		return ret.res, ret.err
	case <-ctx.Done():
	}
	wait := r.j.AbortWait()
	abort := time.NewTimer(wait)
	defer abort.Stop()
	select {
	case ret := <-done:
		return ret.res, ret.err
	case <-abort.C:
		return deployer.Result{}, failure.Terminalf(failure.ReasonAbortTimeout,
			"the deployer did not return within %s after the call was cancelled (%v); what it does from now on is not recorded", wait.Round(time.Millisecond), context.Cause(ctx))
	}
}

// gaveUp is the error that ends an item whose call Retry gave up. An
// interrupt or a timeout explains a cancelled call better than the error
// the deployer made of it, so they are checked first — also after a
// pause between retries, which either may end.
func (r *run) gaveUp(ctx context.Context, err error, retries int, timeout time.Duration, phaseName string) error {
	switch {
	case r.j.Interrupted():
		return failure.Terminalf(failure.ReasonInterrupted, "interrupted while %s: %v", phaseName, err)
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return failure.Terminalf(failure.ReasonProgressingTimeout, "aborted: %s took longer than the timeout of %s: %v", phaseName, timeout, err)
	case failure.IsTerminal(err):
		return err
	default:
		return fmt.Errorf("giving up after %d retries: %w", retries, err)
	}
}
