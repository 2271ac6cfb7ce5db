package testdeployer

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
)

// Config is an item's spec.config.
type Config struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// ConfigMap is written into the target cluster.
	ConfigMap *ConfigMapSpec `json:"configMap,omitempty"`
	// Exports are exported through the export Secret as they are.
	Exports map[string]any `json:"exports,omitempty"`
	// ExportRef, when set, is reported as status.exportRef as it is — a
	// rogue deployer's claim — instead of the export Secret it writes.
	ExportRef map[string]any `json:"exportRef,omitempty"`
	// ExportContext names a field of the item's Landscaper Context that
	// is exported as "context" beside Exports.
	ExportContext string `json:"exportContext,omitempty"`
	// Mode: "" works, ModeFail fails, ModeNever never picks the job up,
	// ModeIgnoreAbort finishes slow work although asked to abort.
	Mode string `json:"mode,omitempty"`
	// Delay makes apply and delete slow (a Go duration); with
	// DelayInstallOnly only the apply.
	Delay            string `json:"delay,omitempty"`
	DelayInstallOnly bool   `json:"delayInstallOnly,omitempty"`
	// FailCodes and FailMessage make up the lastError of ModeFail.
	FailCodes   []string `json:"failCodes,omitempty"`
	FailMessage string   `json:"failMessage,omitempty"`
	// FailDelete makes the deletion fail (DeleteFailed).
	FailDelete bool `json:"failDelete,omitempty"`
}

// ConfigMapSpec is the ConfigMap an item deploys.
type ConfigMapSpec struct {
	Name      string            `json:"name"`
	Namespace string            `json:"namespace"`
	Data      map[string]string `json:"data,omitempty"`
}

// Modes of Config.
const (
	ModeFail        = "fail"
	ModeNever       = "never"
	ModeIgnoreAbort = "ignoreAbort"
)

// Phases and the reason of an aborted job.
const (
	phaseInit, phaseInitDelete, phaseProgressing, phaseDeleting = "Init", "InitDelete", "Progressing", "Deleting"
	phaseSucceeded, phaseFailed, phaseDeleteFailed              = "Succeeded", "Failed", "DeleteFailed"
	// ReasonAborted is the lastError reason of a job stopped on request.
	ReasonAborted = "Aborted"
)

// AnnotationDroppedJob names the last job whose result this deployer
// dropped because the other side had ended it.
const AnnotationDroppedJob = "testdeployer.landscaper-terraform.io/dropped-job"

// errJobTaken: the other side ended or replaced the job; drop it.
var errJobTaken = errors.New("the job was ended or replaced by the other side; result dropped")

// verdict is how a job ended on this side.
type verdict struct {
	phase          string
	lastError      map[string]any
	providerStatus map[string]any
	exportRef      map[string]any
	// gone: the item was deleted (finalizer removed); nothing to write.
	gone bool
}

// handle runs the open job of one item, if there is one.
func (c *Controller) handle(ctx context.Context, name string, poke <-chan struct{}) error {
	res := c.s.Client.Resource(external.DeployItems).Namespace(c.s.Namespace)
	di, err := res.Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		return err
	}
	jobID, _, _ := unstructured.NestedString(di.Object, "status", "jobID")
	finished, _, _ := unstructured.NestedString(di.Object, "status", "jobIDFinished")
	if jobID == "" || jobID == finished {
		return nil
	}
	cfg, cfgErr := parseConfig(di)
	if cfgErr == nil && cfg.Mode == ModeNever {
		return nil
	}
	deleting := di.GetDeletionTimestamp() != nil
	if di, err = c.pickup(ctx, res, di, deleting); err != nil {
		return err
	}
	c.logf("%s: picked up job %s (deleting: %v)", name, jobID, deleting)
	var v verdict
	switch {
	case cfgErr != nil:
		v = failed(deleting, "ParseConfig", cfgErr.Error(), "ERR_CONFIGURATION_PROBLEM")
	case deleting:
		v = c.uninstall(ctx, res, di, cfg, jobID, poke)
	default:
		v = c.install(ctx, res, di, cfg, jobID, poke)
	}
	if v.gone {
		c.logf("%s: deleted", name)
		return nil
	}
	err = c.finish(ctx, res, name, jobID, v)
	c.logf("%s: job %s ended %s (%v)", name, jobID, v.phase, err)
	if errors.Is(err, errJobTaken) {
		// Tell the tests that a late result was dropped.
		patch := fmt.Appendf(nil, `{"metadata":{"annotations":{%q:%q}}}`, AnnotationDroppedJob, jobID)
		_, err = res.Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: "testdeployer"})
	}
	return err
}

func parseConfig(di *unstructured.Unstructured) (Config, error) {
	var cfg Config
	raw, ok, _ := unstructured.NestedFieldNoCopy(di.Object, "spec", "config")
	if !ok {
		return cfg, fmt.Errorf("no config")
	}
	b, err := json.Marshal(raw)
	if err == nil {
		err = json.Unmarshal(b, &cfg)
	}
	return cfg, err
}

// pickup starts the job as Landscaper's library does.
func (c *Controller) pickup(ctx context.Context, res dynamic.ResourceInterface, di *unstructured.Unstructured, deleting bool) (*unstructured.Unstructured, error) {
	now := time.Now().UTC().Format(time.RFC3339)
	status := statusMap(di)
	status["phase"] = phaseInit
	if deleting {
		status["phase"] = phaseInitDelete
	}
	status["observedGeneration"] = di.GetGeneration()
	status["lastReconcileTime"] = now
	status["deployer"] = map[string]any{"identity": c.s.Identity, "name": "testdeployer", "version": "v0"}
	times, _ := status["transitionTimes"].(map[string]any)
	if times == nil {
		times = map[string]any{}
	}
	times["initTime"] = now
	status["transitionTimes"] = times
	delete(status, "lastError")
	return res.UpdateStatus(ctx, di, metav1.UpdateOptions{FieldManager: "testdeployer"})
}

// setPhase writes the phase of work in progress.
func setPhase(ctx context.Context, res dynamic.ResourceInterface, di *unstructured.Unstructured, phase string) (*unstructured.Unstructured, error) {
	_ = unstructured.SetNestedField(di.Object, phase, "status", "phase")
	return res.UpdateStatus(ctx, di, metav1.UpdateOptions{FieldManager: "testdeployer"})
}

// finish ends the job with v, unless the other side ended or replaced it.
func (c *Controller) finish(ctx context.Context, res dynamic.ResourceInterface, name, jobID string, v verdict) error {
	for attempt := 0; attempt < 10; attempt++ {
		di, err := res.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		status := statusMap(di)
		if status["jobID"] != jobID || status["jobIDFinished"] == jobID {
			return errJobTaken
		}
		status["phase"], status["jobIDFinished"] = v.phase, jobID
		status["observedGeneration"] = di.GetGeneration()
		setOrDelete(status, "lastError", v.lastError)
		setOrDelete(status, "providerStatus", v.providerStatus)
		setOrDelete(status, "exportRef", v.exportRef)
		if times, ok := status["transitionTimes"].(map[string]any); ok {
			times["finishedTime"] = time.Now().UTC().Format(time.RFC3339)
		}
		_, err = res.UpdateStatus(ctx, di, metav1.UpdateOptions{FieldManager: "testdeployer"})
		if !apierrors.IsConflict(err) {
			return err
		}
	}
	return fmt.Errorf("too many conflicts")
}

// statusMap returns di's status for changing it in place.
func statusMap(di *unstructured.Unstructured) map[string]any {
	status, ok := di.Object["status"].(map[string]any)
	if !ok {
		status = map[string]any{}
		di.Object["status"] = status
	}
	return status
}

func setOrDelete(m map[string]any, key string, v map[string]any) {
	if v == nil {
		delete(m, key)
		return
	}
	m[key] = v
}

// failed is a verdict of failure with a lastError.
func failed(deleting bool, reason, message string, codes ...string) verdict {
	now := time.Now().UTC().Format(time.RFC3339)
	e := map[string]any{"operation": "Reconcile", "reason": reason, "message": message, "lastTransitionTime": now, "lastUpdateTime": now}
	if len(codes) > 0 {
		c := make([]any, len(codes))
		for i, code := range codes {
			c[i] = code
		}
		e["codes"] = c
	}
	phase := phaseFailed
	if deleting {
		phase, e["operation"] = phaseDeleteFailed, "Delete"
	}
	return verdict{phase: phase, lastError: e}
}

// slow waits for the configured delay; it returns false when the job is
// to stop: an abort request, the other side ended the job, or ctx ended.
func (c *Controller) slow(ctx context.Context, name, jobID string, cfg Config, poke <-chan struct{}) bool {
	delay, _ := time.ParseDuration(cfg.Delay)
	if delay <= 0 {
		return true
	}
	timer := time.NewTimer(delay)
	defer timer.Stop()
	ignore := c.s.IgnoreAbort || cfg.Mode == ModeIgnoreAbort
	for {
		if !ignore && c.stopRequested(name, jobID) {
			c.logf("%s: stopping job %s on request", name, jobID)
			return false
		}
		select {
		case <-timer.C:
			return true
		case <-poke:
		case <-ctx.Done():
			return false
		}
	}
}

// stopRequested: the item carries the abort annotation, or the other side
// ended (or replaced) the job, as Landscaper's interrupt does.
func (c *Controller) stopRequested(name, jobID string) bool {
	di := c.cached(name)
	if di == nil {
		return true
	}
	if di.GetAnnotations()[external.AnnotationOperation] == external.OperationAbort {
		return true
	}
	id, _, _ := unstructured.NestedString(di.Object, "status", "jobID")
	done, _, _ := unstructured.NestedString(di.Object, "status", "jobIDFinished")
	return id != jobID || done == jobID
}
