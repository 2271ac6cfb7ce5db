package external

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// job is one job of the contract on one DeployItem: this side triggers
// it with a new ID, the deployer finishes it — or this side ends it at
// the pickup timeout or after an abort.
type job struct {
	res dynamic.ResourceInterface
	id  string
	// timeouts are the call's (deployer.Timeouts); this side measures
	// the pickup timeout and, from the pickup on, the progressing one.
	timeouts deployer.Timeouts
	// idle gives the call's parallelism slot back (deployer.Item.GoIdle).
	idle func() (resume func())
}

// outcome is where a job left its DeployItem: its last state, or gone.
type outcome struct {
	obj  *unstructured.Unstructured
	gone bool
}

// codeTimeout is the Landscaper error code of a timeout this side ends a
// job with (the reasons are failure.Reason*).
const codeTimeout = "ERR_TIMEOUT"

// runJob triggers a new job on obj for item and waits until it ends.
func (d *Deployer) runJob(ctx context.Context, res dynamic.ResourceInterface, obj *unstructured.Unstructured, item deployer.Item) (outcome, error) {
	j := &job{res: res, id: uuid.NewString(), timeouts: item.Timeouts, idle: item.GoIdle}
	obj, err := j.trigger(ctx, obj)
	if err != nil || obj == nil {
		return outcome{obj: obj, gone: obj == nil && err == nil}, err
	}
	return j.wait(ctx, obj)
}

// trigger starts the job as Landscaper does: a new jobID with its
// generation time, and the transition times reset to the trigger (so
// the deployer's initTime tells this job's pickup). A pending abort
// request of an earlier job is removed first. nil: the object is gone.
func (j *job) trigger(ctx context.Context, obj *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if obj.GetAnnotations()[AnnotationOperation] == OperationAbort || obj.GetAnnotations()[AnnotationAbortTime] != "" {
		patch := []byte(`{"metadata":{"annotations":{"` + AnnotationOperation + `":null,"` + AnnotationAbortTime + `":null}}}`)
		patched, err := j.res.Patch(ctx, obj.GetName(), types.MergePatchType, patch, metav1.PatchOptions{FieldManager: fieldManager})
		if err != nil {
			return nil, fmt.Errorf("removing the abort request from %s: %w", describe(obj), err)
		}
		obj = patched
	}
	var written *unstructured.Unstructured
	var readErr error
	tried := false
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		if tried { // the deployer wrote the status meanwhile (finishing an older job)
			if obj, readErr = get(ctx, j.res, obj.GetName()); readErr != nil {
				return readErr // not a conflict: ends the retries
			}
			if obj == nil {
				return nil // gone
			}
		}
		tried = true
		now := metav1.Now().Rfc3339Copy()
		status, _ := obj.Object["status"].(map[string]any)
		if status == nil {
			status = map[string]any{"observedGeneration": int64(0)}
		}
		status["jobID"] = j.id
		status["jobIDGenerationTime"] = now.Format(time.RFC3339)
		status["transitionTimes"] = map[string]any{"triggerTime": now.Format(time.RFC3339)}
		obj.Object["status"] = status
		var err error
		written, err = j.res.UpdateStatus(ctx, obj, metav1.UpdateOptions{FieldManager: fieldManager})
		return err
	})
	switch {
	case readErr != nil || obj == nil:
		return nil, readErr
	case err != nil:
		return nil, fmt.Errorf("starting a job on %s: %w", describe(obj), classifyWrite(err))
	}
	return written, nil
}

// wait follows the DeployItem until the job ends: the deployer finished
// it, no deployer picked it up in time, it ran out of time, or ctx ended.
// It only waits for watch events meanwhile, so it gives the call's
// parallelism slot back (deployer.Item.GoIdle).
func (j *job) wait(ctx context.Context, obj *unstructured.Unstructured) (outcome, error) {
	fctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	changes := follow(fctx, j.res, obj)
	resume := j.idle()
	defer func() {
		if ctx.Err() == nil { // a cancelled call only returns
			resume()
		}
	}()

	var pickupC, progressC <-chan time.Time
	if j.timeouts.Pickup > 0 {
		pickup := time.NewTimer(j.timeouts.Pickup)
		defer pickup.Stop()
		pickupC = pickup.C
	}
	picked := false
	for cur := obj; ; {
		st := statusOf(cur)
		switch {
		case st.JobID != j.id:
			return outcome{obj: cur}, fmt.Errorf("%s: another job (%s) was started on it meanwhile", describe(cur), st.JobID)
		case st.finished(j.id):
			return outcome{obj: cur}, nil
		case !picked && st.pickedUp(j.id):
			picked, pickupC = true, nil
			if j.timeouts.Progressing > 0 { // the whole window, from the pickup
				progress := time.NewTimer(j.timeouts.Progressing)
				defer progress.Stop()
				progressC = progress.C
			}
		}
		select {
		case c, open := <-changes:
			switch {
			case !open:
				return outcome{obj: cur}, fmt.Errorf("%s: following it stopped", describe(cur))
			case c.err != nil:
				return outcome{obj: cur}, c.err
			case c.gone:
				return outcome{gone: true}, nil
			}
			cur = c.obj
		case <-pickupC:
			resume()
			ended, byUs, err := j.end(ctx, cur, true, failure.ReasonPickupTimeout, "WaitingForPickup",
				fmt.Sprintf("no deployer of type %q picked up the job within %s", typeOf(cur), j.timeouts.Pickup), codeTimeout)
			switch {
			case err != nil, ended.gone:
				return ended, err
			case byUs:
				return ended, failure.Terminalf(failure.ReasonPickupTimeout,
					"%s: no deployer of type %q picked up the job within %s (is one running, watching namespace %s, and does its target selector match?)",
					describe(cur), typeOf(cur), j.timeouts.Pickup, cur.GetNamespace())
			}
			cur, resume = ended.obj, j.idle() // picked up or finished at the last moment
		case <-progressC:
			return j.abort(ctx, cur, changes, failure.ReasonProgressingTimeout,
				fmt.Sprintf("the deployer did not finish within the timeout of %s after it picked the job up", j.timeouts.Progressing))
		case <-ctx.Done():
			reason := failure.ReasonInterrupted
			if errors.Is(ctx.Err(), context.DeadlineExceeded) { // a caller that bounds the call itself
				reason = failure.ReasonProgressingTimeout
			}
			return j.abort(ctx, cur, changes, reason, fmt.Sprintf("the call was cancelled (%v)", context.Cause(ctx)))
		}
	}
}

// typeOf is the DeployItem's spec.type.
func typeOf(obj *unstructured.Unstructured) string {
	t, _, _ := unstructured.NestedString(obj.Object, "spec", "type")
	return t
}
