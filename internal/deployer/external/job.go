package external

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// job is one job of the contract on one DeployItem: this side triggers
// it with a new ID, the deployer finishes it — or this side ends it at
// the pickup timeout or after an abort.
type job struct {
	d   *Deployer
	res dynamic.ResourceInterface
	id  string
	// timeout bounds the deployer's work from its pickup on; 0: none.
	timeout time.Duration
	// abortWait is how long a deployer asked to abort may take to end the
	// job itself; endBudget bounds the writes that then end it from this
	// side (abortBudget).
	abortWait, endBudget time.Duration
}

// outcome is where a job left its DeployItem: its last state, or gone.
type outcome struct {
	obj  *unstructured.Unstructured
	gone bool
}

// Reasons of the errors a job ends with.
const (
	ReasonPickupTimeout      = "PickupTimeout"
	ReasonProgressingTimeout = "ProgressingTimeout"
	ReasonInterrupted        = "Interrupted"
	codeTimeout              = "ERR_TIMEOUT"
)

// runJob triggers a new job on obj for item and waits until it ends.
func (d *Deployer) runJob(ctx context.Context, res dynamic.ResourceInterface, obj *unstructured.Unstructured, item deployer.Item) (outcome, error) {
	j := &job{d: d, res: res, id: uuid.NewString(), timeout: item.Timeout}
	j.abortWait, j.endBudget = abortBudget(item.AbortTimeout)
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
	for attempt := 0; ; attempt++ {
		now := metav1.Now().Rfc3339Copy()
		status, _ := obj.Object["status"].(map[string]any)
		if status == nil {
			status = map[string]any{"observedGeneration": int64(0)}
		}
		status["jobID"] = j.id
		status["jobIDGenerationTime"] = now.Format(time.RFC3339)
		status["transitionTimes"] = map[string]any{"triggerTime": now.Format(time.RFC3339)}
		obj.Object["status"] = status
		written, err := j.res.UpdateStatus(ctx, obj, metav1.UpdateOptions{FieldManager: fieldManager})
		if err == nil {
			return written, nil
		}
		if !apierrors.IsConflict(err) || attempt >= 4 {
			return nil, fmt.Errorf("starting a job on %s: %w", describe(obj), classifyWrite(err))
		}
		// The deployer wrote the status meanwhile (finishing an older job).
		if obj, err = get(ctx, j.res, obj.GetName()); err != nil || obj == nil {
			return nil, err
		}
	}
}

// wait follows the DeployItem until the job ends: the deployer finished
// it, no deployer picked it up in time, it ran out of time, or ctx ended.
// It only waits for watch events meanwhile, so it gives the call's
// parallelism slot back (deployer.Idle).
func (j *job) wait(ctx context.Context, obj *unstructured.Unstructured) (outcome, error) {
	fctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	changes := follow(fctx, j.res, obj)
	resume := deployer.Idle(ctx)
	defer func() {
		if ctx.Err() == nil { // a cancelled call only returns
			resume()
		}
	}()

	var pickupC, progressC <-chan time.Time
	if j.d.pickupTimeout > 0 {
		pickup := time.NewTimer(j.d.pickupTimeout)
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
			if j.timeout > 0 {
				progress := time.NewTimer(j.timeout)
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
			ended, byUs, err := j.end(ctx, cur, true, ReasonPickupTimeout, "WaitingForPickup",
				fmt.Sprintf("no deployer of type %q picked up the job within %s", typeOf(cur), j.d.pickupTimeout), codeTimeout)
			switch {
			case err != nil, ended.gone:
				return ended, err
			case byUs:
				return ended, failure.Terminalf(ReasonPickupTimeout,
					"%s: no deployer of type %q picked up the job within %s (is one running, watching namespace %s, and does its target selector match?)",
					describe(cur), typeOf(cur), j.d.pickupTimeout, cur.GetNamespace())
			}
			cur, resume = ended.obj, deployer.Idle(ctx) // picked up or finished at the last moment
		case <-progressC:
			return j.abort(ctx, cur, changes, ReasonProgressingTimeout, fmt.Sprintf("the deployer did not finish within the timeout of %s", j.timeout))
		case <-ctx.Done():
			reason := ReasonInterrupted
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				reason = ReasonProgressingTimeout
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
