package external

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// maxEndWrites bounds the writes that end a job after the call's
// context ended (the abort request and the final status).
const maxEndWrites = 5 * time.Second

// abortBudget is the time a stop of the job may take, split: the
// deployer gets the first part to stop and end the job itself, this side
// keeps the rest to end the job without it. After the engine ended the
// call's context, the engine measures the abort timeout and says until
// when (deployer.AbortDeadline), so the job is over before the engine
// gives the call up; when this side stops the job at its own timeout, it
// measures the abort timeout (deployer.Timeouts.Abort) from now.
func (j *job) abortBudget(ctx context.Context) (deployerWait, endWrites time.Duration) {
	total := j.timeouts.Abort
	if total <= 0 {
		total = api.DefaultAbortTimeout
	}
	if deadline, ok := deployer.AbortDeadline(ctx); ok && ctx.Err() != nil {
		total = max(0, time.Until(deadline))
	}
	endWrites = min(maxEndWrites, total/2)
	return total - endWrites, endWrites
}

// abort stops the job because of reason: a deployer that has picked it up
// is asked to stop (the abort annotation and its time) and given the abort
// timeout to finish the job itself, as Failed; then, or at once when no
// deployer has picked it up, this side ends the job as Landscaper ends an
// interrupted one (Failed, jobIDFinished), which makes a deployer that
// checks for interruption stop and drop its result. Either way the job
// is over when abort returns, and it returns a terminal error.
func (j *job) abort(ctx context.Context, cur *unstructured.Unstructured, changes <-chan change, reason, why string) (outcome, error) {
	abortWait, endWrites := j.abortBudget(ctx)
	actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), abortWait+endWrites)
	defer cancel()
	name := describe(cur)
	// The watch may lag behind the deployer (a loaded client waits on its
	// rate limiter): whether a deployer picked the job up, and so is asked
	// to stop, is decided on the live object.
	if live, err := get(actx, j.res, cur.GetName()); err == nil {
		if live == nil {
			return outcome{gone: true}, abortError(reason, name, why, outcome{gone: true}, nil)
		}
		cur = live
	}
	if statusOf(cur).pickedUp(j.id) && abortWait > 0 {
		stopped, err := j.requestAbort(actx, cur, changes, abortWait)
		if err != nil || stopped.gone || statusOf(stopped.obj).finished(j.id) {
			return stopped, abortError(reason, name, why, stopped, err)
		}
		cur = stopped.obj
	}
	ended, byUs, err := j.end(actx, cur, false, reason, "Abort", why+"; the job was ended without the deployer", codesFor(reason)...)
	if err != nil {
		return ended, failure.NewTerminal(reason, fmt.Errorf("%s: %s; ending the job failed: %w", name, why, err))
	}
	if !byUs {
		return ended, abortError(reason, name, why, ended, nil)
	}
	how := "no deployer had picked the job up"
	if statusOf(cur).pickedUp(j.id) {
		how = fmt.Sprintf("the deployer did not stop within %s of the abort timeout, so the job was ended without it; what it does from now on is not recorded", abortWait)
	}
	return ended, failure.Terminalf(reason, "%s: %s; %s", name, why, how)
}

// requestAbort writes the abort request and waits, up to wait (its part
// of the abort timeout), for the deployer to end the job (or for the
// object to go).
func (j *job) requestAbort(ctx context.Context, cur *unstructured.Unstructured, changes <-chan change, wait time.Duration) (outcome, error) {
	now := time.Now().UTC().Format(time.RFC3339)
	patch := fmt.Appendf(nil, `{"metadata":{"annotations":{%q:%q,%q:%q}}}`, AnnotationOperation, OperationAbort, AnnotationAbortTime, now)
	if _, err := j.res.Patch(ctx, cur.GetName(), types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager}); err != nil {
		if apierrors.IsNotFound(err) {
			return outcome{gone: true}, nil
		}
		return outcome{obj: cur}, nil // the end of the job does not depend on the request
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		if statusOf(cur).finished(j.id) {
			return outcome{obj: cur}, nil
		}
		select {
		case c, open := <-changes:
			switch {
			case !open || c.err != nil:
				return outcome{obj: cur}, nil // end the job without watching
			case c.gone:
				return outcome{gone: true}, nil
			}
			cur = c.obj
		case <-deadline.C:
			return outcome{obj: cur}, nil
		case <-ctx.Done():
			return outcome{obj: cur}, nil
		}
	}
}

// abortError is the error of a job that ended after an abort request,
// with what the deployer reported, if it did.
func abortError(reason, name, why string, o outcome, err error) error {
	if err != nil {
		return failure.NewTerminal(reason, fmt.Errorf("%s: %s: %w", name, why, err))
	}
	if o.gone {
		return failure.Terminalf(reason, "%s: %s; the DeployItem is gone", name, why)
	}
	st := statusOf(o.obj)
	reported := "it reported phase " + st.Phase
	if st.LastError != nil {
		reported += ": " + st.LastError.String()
	}
	return failure.Terminalf(reason, "%s: %s; the deployer stopped (%s)", name, why, reported)
}

func codesFor(reason string) []string {
	if reason == failure.ReasonInterrupted {
		return nil
	}
	return []string{codeTimeout}
}

// end finishes the job from this side: the failure phase of the item
// (DeleteFailed while it is being deleted), jobIDFinished, and lastError
// — written only while the job is still open, and with unpicked only
// while no deployer has picked it up. It tells whether it wrote.
func (j *job) end(ctx context.Context, cur *unstructured.Unstructured, unpicked bool, reason, operation, message string, codes ...string) (outcome, bool, error) {
	var out outcome
	wrote := false
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if out.obj != nil { // a conflict: end the job as it is now
			live, err := get(ctx, j.res, cur.GetName())
			switch {
			case err != nil:
				return err
			case live == nil:
				out = outcome{gone: true}
				return nil
			}
			cur = live
		}
		out = outcome{obj: cur}
		st := statusOf(cur)
		if st.finished(j.id) || (unpicked && st.pickedUp(j.id)) {
			return nil
		}
		written, err := j.res.UpdateStatus(ctx, endedBy(cur, j.id, reason, operation, message, codes), metav1.UpdateOptions{FieldManager: fieldManager})
		switch {
		case err == nil:
			out, wrote = outcome{obj: written}, true
		case apierrors.IsNotFound(err):
			out, err = outcome{gone: true}, nil
		case apierrors.IsConflict(err):
			// read again before the next try
		default:
			err = fmt.Errorf("ending the job on %s: %w", describe(cur), err)
		}
		return err
	})
	if apierrors.IsConflict(err) {
		err = fmt.Errorf("ending the job on %s: %w", describe(cur), err)
	}
	return out, wrote, err
}

// endedBy is cur with job id ended from this side: the failure phase of
// the item (DeleteFailed while it is being deleted), jobIDFinished and
// lastError.
func endedBy(cur *unstructured.Unstructured, id, reason, operation, message string, codes []string) *unstructured.Unstructured {
	obj := cur.DeepCopy()
	status, _ := obj.Object["status"].(map[string]any)
	if status == nil {
		status = map[string]any{}
	}
	now := time.Now().UTC().Format(time.RFC3339)
	phase := phaseFailed
	if obj.GetDeletionTimestamp() != nil {
		phase = phaseDeleteFailed
	}
	lastError := map[string]any{"operation": operation, "reason": reason, "message": message,
		"lastTransitionTime": now, "lastUpdateTime": now}
	if len(codes) > 0 {
		c := make([]any, len(codes))
		for i, code := range codes {
			c[i] = code
		}
		lastError["codes"] = c
	}
	status["phase"], status["jobIDFinished"], status["lastError"] = phase, id, lastError
	status["observedGeneration"] = obj.GetGeneration()
	times, _ := status["transitionTimes"].(map[string]any)
	if times == nil {
		times = map[string]any{}
	}
	times["finishedTime"] = now
	status["transitionTimes"] = times
	obj.Object["status"] = status
	return obj
}
