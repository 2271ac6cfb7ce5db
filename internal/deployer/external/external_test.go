package external_test

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testdeployer"
)

// One test deployer process serves every subtest; each has its own item.
func TestExternal(t *testing.T) {
	w := newWorld(t)
	for name, test := range map[string]func(*testing.T, *world){
		"Lifecycle":              testLifecycle,
		"Failure":                testFailure,
		"PickupTimeout":          testPickupTimeout,
		"ProgressingTimeout":     testProgressingTimeout,
		"Interrupt":              testInterrupt,
		"AbortTimeout":           testAbortTimeout,
		"DeleteWithoutUninstall": testDeleteWithoutUninstall,
		"DeleteUnanswered":       testDeleteUnanswered,
		"LostState":              testLostState,
		"Drift":                  testDrift,
		"Ownership":              testOwnership,
		"ApplyFinishesDeletion":  testApplyFinishesDeletion,
		"HandedOver":             testHandedOver,
		"ForeignExportRef":       testForeignExportRef,
		"Adoption":               testAdoption,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			test(t, w)
		})
	}
}

func mustApply(t *testing.T, d deployer.Deployer, item deployer.Item) deployer.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res
}

func mustDelete(t *testing.T, d deployer.Deployer, item deployer.Item, opts deployer.DeleteOptions) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := d.Delete(ctx, item, opts); err != nil {
		t.Fatalf("Delete: %v", err)
	}
}

// Apply deploys through the deployer and returns its exports; an update
// starts a new job on the same DeployItem; Delete uninstalls and removes
// the DeployItem, its Target and its Context.
func testLifecycle(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("lifecycle", testdeployer.Config{ConfigMap: w.configMap("lifecycle", "1"), Exports: map[string]any{"url": "http://app", "replicas": 2}})
	res := mustApply(t, d, item)
	if want := map[string]any{"url": "http://app", "replicas": float64(2)}; !reflect.DeepEqual(res.Exports, want) {
		t.Errorf("exports = %v, want %v", res.Exports, want)
	}
	st := status(t, res)
	if st.Phase != "Succeeded" || st.Deployer == nil || st.Deployer.Name != "testdeployer" || st.ExportRef == nil || len(st.DeployerStatus) == 0 {
		t.Errorf("provider status = %+v", st)
	}
	if cm := w.get(t, configMaps, "lifecycle"); cm == nil || nested(cm, "data", "value") != "1" {
		t.Fatalf("ConfigMap after apply: %v", cm)
	}
	di := w.get(t, external.DeployItems, st.Name)
	if di == nil || nested(di, "status", "jobID") != st.JobID || nested(di, "status", "jobIDFinished") != st.JobID {
		t.Fatalf("DeployItem after apply: %v", di)
	}
	if w.get(t, external.Targets, st.Name) == nil || w.get(t, external.Contexts, st.Name) == nil {
		t.Fatal("Target or Context missing after apply")
	}

	item = w.item("lifecycle", testdeployer.Config{ConfigMap: w.configMap("lifecycle", "2")})
	item.ProviderStatus = res.ProviderStatus
	res2 := mustApply(t, d, item)
	if st2 := status(t, res2); st2.JobID == st.JobID || st2.UID != st.UID {
		t.Errorf("update: job %s uid %s after job %s uid %s: want a new job on the same DeployItem", st2.JobID, st2.UID, st.JobID, st.UID)
	}
	if res2.Exports != nil {
		t.Errorf("exports after an update without exports = %v", res2.Exports)
	}
	if cm := w.get(t, configMaps, "lifecycle"); cm == nil || nested(cm, "data", "value") != "2" {
		t.Fatalf("ConfigMap after update: %v", cm)
	}

	item.ProviderStatus = res2.ProviderStatus
	mustDelete(t, d, item, deployer.DeleteOptions{})
	if w.get(t, external.DeployItems, st.Name) != nil || w.get(t, external.Targets, st.Name) != nil || w.get(t, external.Contexts, st.Name) != nil {
		t.Error("DeployItem, Target or Context left after Delete")
	}
	if w.get(t, configMaps, "lifecycle") != nil {
		t.Error("the deployer did not uninstall the ConfigMap")
	}
	mustDelete(t, d, item, deployer.DeleteOptions{}) // deleting again finds nothing and succeeds
}

// A failed job returns the deployer's lastError, terminal when its codes
// say so, with the provider status of what exists.
func testFailure(t *testing.T, w *world) {
	d := w.deployer()
	for _, tc := range []struct {
		codes    []string
		terminal bool
	}{{[]string{"ERR_CONFIGURATION_PROBLEM"}, true}, {nil, false}} {
		item := w.item("failure", testdeployer.Config{Mode: testdeployer.ModeFail, FailMessage: "the image does not exist", FailCodes: tc.codes})
		res, err := d.Apply(context.Background(), item)
		if err == nil || failure.IsTerminal(err) != tc.terminal || !strings.Contains(err.Error(), "the image does not exist") {
			t.Fatalf("codes %v: Apply = %v, want a terminal=%v error with the deployer's message", tc.codes, err, tc.terminal)
		}
		if got := failure.Codes(err); !slices.Equal(got, tc.codes) {
			t.Errorf("the error carries codes %v, want the deployer's %v: %v", got, tc.codes, err)
		}
		if st := status(t, res); st.Phase != "Failed" {
			t.Errorf("provider status phase = %q", st.Phase)
		}
		item.ProviderStatus = res.ProviderStatus
		mustDelete(t, d, item, deployer.DeleteOptions{})
	}
}

// No deployer for the type: the job ends with the pickup timeout, as
// Landscaper ends it, and the deletion then needs no deployer.
func testPickupTimeout(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("nobody", testdeployer.Config{})
	item.Type = "landscaper-terraform.io/nobody"
	start := time.Now()
	res, err := d.Apply(context.Background(), item)
	if failure.Reason(err) != failure.ReasonPickupTimeout || !failure.IsTerminal(err) {
		t.Fatalf("Apply = %v, want a terminal PickupTimeout", err)
	}
	if took := time.Since(start); took < pickupTimeout {
		t.Errorf("the pickup timeout of %s ended the job after %s", pickupTimeout, took)
	}
	st := status(t, res)
	di := w.get(t, external.DeployItems, st.Name)
	if nested(di, "status", "phase") != "Failed" || nested(di, "status", "lastError", "reason") != "PickupTimeout" ||
		nested(di, "status", "lastError", "codes") != "[ERR_TIMEOUT]" || nested(di, "status", "jobIDFinished") != st.JobID {
		t.Errorf("DeployItem status after the pickup timeout: %v", di.Object["status"])
	}
	// No deployer ever reconciled it, so the deletion needs none: it ends
	// although a job would wait an hour for its pickup.
	patient := external.New(external.Options{Client: w.client, Namespace: w.namespace})
	item.ProviderStatus, item.Timeouts.Pickup = res.ProviderStatus, time.Hour
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := patient.Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if w.get(t, external.DeployItems, st.Name) != nil || w.get(t, external.Contexts, st.Name) != nil {
		t.Error("objects left")
	}
}

// A job that outlives the item's timeout is aborted; the deployer stops
// on the abort request and reports it.
func testProgressingTimeout(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("slow", testdeployer.Config{Delay: "1m"})
	item.Timeouts.Progressing = 2 * time.Second
	res, err := d.Apply(context.Background(), item)
	if failure.Reason(err) != failure.ReasonProgressingTimeout || !strings.Contains(err.Error(), "the deployer stopped") ||
		!strings.Contains(err.Error(), testdeployer.ReasonAborted) {
		t.Fatalf("Apply = %v, want a ProgressingTimeout the deployer stopped for", err)
	}
	st := status(t, res)
	di := w.get(t, external.DeployItems, st.Name)
	if di.GetAnnotations()[external.AnnotationOperation] != external.OperationAbort || di.GetAnnotations()[external.AnnotationAbortTime] == "" {
		t.Errorf("abort annotations = %v", di.GetAnnotations())
	}
	// The deployer would take its minute again to uninstall; it deployed nothing.
	item.ProviderStatus = res.ProviderStatus
	mustDelete(t, d, item, deployer.DeleteOptions{WithoutUninstall: true})
}

// Cancelling the call aborts the job; the next job starts without the
// old abort request and succeeds.
func testInterrupt(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("interrupt", testdeployer.Config{Delay: "1m", ConfigMap: w.configMap("interrupt", "1")})
	res, err := d.Apply(w.cancelAt(t, item, "Progressing"), item)
	if failure.Reason(err) != failure.ReasonInterrupted || !failure.IsTerminal(err) || !strings.Contains(err.Error(), "the deployer stopped") {
		t.Fatalf("Apply = %v, want Interrupted, the deployer stopping", err)
	}
	item = w.item("interrupt", testdeployer.Config{ConfigMap: w.configMap("interrupt", "2")})
	item.ProviderStatus = res.ProviderStatus
	res = mustApply(t, d, item)
	di := w.get(t, external.DeployItems, status(t, res).Name)
	if _, has := di.GetAnnotations()[external.AnnotationOperation]; has {
		t.Errorf("the abort request survived into the next job: %v", di.GetAnnotations())
	}
	if cm := w.get(t, configMaps, "interrupt"); cm == nil || nested(cm, "data", "value") != "2" {
		t.Errorf("ConfigMap after the next job: %v", cm)
	}
	item.ProviderStatus = res.ProviderStatus
	mustDelete(t, d, item, deployer.DeleteOptions{})
}

// A deployer that ignores the abort request is given the abort timeout;
// then the job is ended without it and what it reports later is dropped.
func testAbortTimeout(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("stubborn", testdeployer.Config{Delay: "8s", Mode: testdeployer.ModeIgnoreAbort, ConfigMap: w.configMap("stubborn", "1")})
	res, err := d.Apply(w.cancelAt(t, item, "Progressing"), item)
	if failure.Reason(err) != failure.ReasonInterrupted || !strings.Contains(err.Error(), "of the abort timeout, so the job was ended without it") {
		t.Fatalf("Apply = %v, want Interrupted after the abort timeout", err)
	}
	if w.get(t, configMaps, "stubborn") != nil {
		t.Fatal("Apply waited for the deployer instead of ending the job after the abort timeout")
	}
	st := status(t, res)
	// The deployer finishes its work anyway; its late result is dropped
	// (its uninstall finds the ConfigMap by its config).
	w.waitFor(t, external.DeployItems, st.Name, time.Minute, func(u *unstructured.Unstructured) bool {
		return u != nil && u.GetAnnotations()[testdeployer.AnnotationDroppedJob] == st.JobID
	})
	if w.get(t, configMaps, "stubborn") == nil {
		t.Error("the stubborn deployer did not deploy")
	}
	di := w.get(t, external.DeployItems, st.Name)
	if nested(di, "status", "phase") != "Failed" || nested(di, "status", "lastError", "reason") != failure.ReasonInterrupted ||
		nested(di, "status", "jobIDFinished") != st.JobID {
		t.Errorf("the deployer's late result overwrote the ended job: %v", di.Object["status"])
	}
	item.ProviderStatus = res.ProviderStatus
	mustDelete(t, d, item, deployer.DeleteOptions{})
	if w.get(t, configMaps, "stubborn") != nil {
		t.Error("Delete left the ConfigMap the stubborn job deployed")
	}
}

// Without uninstall the objects of this side go, what the deployer
// deployed stays.
func testDeleteWithoutUninstall(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("keep", testdeployer.Config{ConfigMap: w.configMap("keep", "1")})
	item.ProviderStatus = mustApply(t, d, item).ProviderStatus
	mustDelete(t, d, item, deployer.DeleteOptions{WithoutUninstall: true})
	name := statusName(t, item)
	if w.get(t, external.DeployItems, name) != nil || w.get(t, external.Targets, name) != nil || w.get(t, external.Contexts, name) != nil {
		t.Error("objects left after Delete without uninstall")
	}
	if w.get(t, configMaps, "keep") == nil {
		t.Error("Delete without uninstall removed what the deployer deployed")
	}
}

func statusName(t *testing.T, item deployer.Item) string {
	return status(t, deployer.Result{ProviderStatus: item.ProviderStatus}).Name
}

// A deployer that deployed something and then does not answer the
// deletion: Delete ends with the pickup timeout, and the DeployItem stays
// (DeleteFailed) to record what exists.
func testDeleteUnanswered(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("unanswered", testdeployer.Config{ConfigMap: w.configMap("unanswered", "1")})
	item.ProviderStatus = mustApply(t, d, item).ProviderStatus
	name := statusName(t, item)
	// From now on the deployer ignores the item (as if it was gone).
	patch := []byte(`{"spec":{"config":{"mode":"never"}}}`)
	if _, err := w.res(external.DeployItems).Patch(context.Background(), name, "application/merge-patch+json", patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	err := d.Delete(context.Background(), item, deployer.DeleteOptions{})
	if failure.Reason(err) != failure.ReasonPickupTimeout {
		t.Fatalf("Delete = %v, want PickupTimeout", err)
	}
	di := w.get(t, external.DeployItems, name)
	if di == nil || nested(di, "status", "phase") != "DeleteFailed" || w.get(t, configMaps, "unanswered") == nil {
		t.Fatalf("after an unanswered delete: DeployItem %v", di)
	}
	mustDelete(t, d, item, deployer.DeleteOptions{WithoutUninstall: true})
}

// An apply without provider status (lost state, import) takes the same
// DeployItem over instead of making a second one.
func testLostState(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("lost", testdeployer.Config{ConfigMap: w.configMap("lost", "1")})
	first := status(t, mustApply(t, d, item))
	again := status(t, mustApply(t, d, item)) // no ProviderStatus
	if again.UID != first.UID || again.JobID == first.JobID {
		t.Errorf("apply after a lost state: uid %s job %s, first uid %s job %s", again.UID, again.JobID, first.UID, first.JobID)
	}
	mustDelete(t, d, item, deployer.DeleteOptions{}) // also without status
	if w.get(t, external.DeployItems, first.Name) != nil || w.get(t, configMaps, "lost") != nil {
		t.Error("Delete without provider status left objects")
	}
}

// Drift sees a changed DeployItem and a missing Context; an apply repairs
// both.
func testDrift(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("drift", testdeployer.Config{ConfigMap: w.configMap("drift", "1")})
	item.ProviderStatus = mustApply(t, d, item).ProviderStatus
	name := statusName(t, item)
	drift := func() deployer.DriftReport {
		t.Helper()
		r, err := d.Drift(context.Background(), item)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := drift(); r.Drifted {
		t.Fatalf("drifted right after apply: %s", r.Reason)
	}
	patch := []byte(`{"spec":{"config":{"exports":{"x":"secret-value"}}}}`)
	if _, err := w.res(external.DeployItems).Patch(context.Background(), name, "application/merge-patch+json", patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := drift(); !r.Drifted || !strings.Contains(r.Reason, "spec.config") || strings.Contains(r.Reason, "secret-value") {
		t.Errorf("after a config change: %+v, want spec.config named, no value", r)
	}
	if err := w.res(external.Contexts).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	item.ProviderStatus = mustApply(t, d, item).ProviderStatus
	if r := drift(); r.Drifted {
		t.Errorf("drifted after the repair: %s", r.Reason)
	}
	if err := w.res(external.Contexts).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if r := drift(); !r.Drifted || !strings.Contains(r.Reason, "Context") {
		t.Errorf("after the Context was deleted: %+v", r)
	}
	mustDelete(t, d, item, deployer.DeleteOptions{})
}

// Another item's DeployItem of the same name is refused; what a newer
// instance adopted is left to it by an older instance's Delete.
func testOwnership(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("owned", testdeployer.Config{})
	item.Instance = "0190a000-0000-7000-8000-000000000001"
	name := status(t, mustApply(t, d, item)).Name

	newer := item
	newer.Instance = "0190b000-0000-7000-8000-000000000002"
	mustApply(t, d, newer)
	mustDelete(t, d, item, deployer.DeleteOptions{})
	if w.get(t, external.DeployItems, name) == nil || w.get(t, external.Contexts, name) == nil {
		t.Fatal("an older instance's Delete removed what the newer one adopted")
	}
	mustDelete(t, d, newer, deployer.DeleteOptions{})
	if w.get(t, external.DeployItems, name) != nil {
		t.Fatal("the newer instance's Delete left its DeployItem")
	}

	// A DeployItem of the same name that another item owns.
	foreign := w.item("owned", testdeployer.Config{})
	foreign.ID = "someone/else"
	obj := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "DeployItem",
		"metadata": map[string]any{"name": name, "namespace": w.namespace, "labels": map[string]any{"landscaper.gardener.cloud/deploy-item": "other"}},
		"spec":     map[string]any{"type": testdeployer.Type},
	}}
	if _, err := w.res(external.DeployItems).Create(context.Background(), obj, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err := d.Apply(context.Background(), item)
	if failure.Reason(err) != "NotOwned" || !failure.IsTerminal(err) {
		t.Errorf("Apply over another item's DeployItem = %v, want NotOwned", err)
	}
	mustDelete(t, d, item, deployer.DeleteOptions{})
	if w.get(t, external.DeployItems, name) == nil {
		t.Error("Delete removed another item's DeployItem")
	}
}

// An apply that finds its DeployItem being deleted (an interrupted
// destroy) has the deployer finish the deletion, then starts afresh.
func testApplyFinishesDeletion(t *testing.T, w *world) {
	d := w.deployer()
	item := w.item("reborn", testdeployer.Config{ConfigMap: w.configMap("reborn", "1")})
	first := status(t, mustApply(t, d, item))
	if err := w.res(external.DeployItems).Delete(context.Background(), first.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	item.ProviderStatus = nil
	again := status(t, mustApply(t, d, item))
	if again.UID == first.UID || again.Phase != "Succeeded" {
		t.Errorf("apply of a deleting item: uid %s phase %s (first uid %s)", again.UID, again.Phase, first.UID)
	}
	if cm := w.get(t, configMaps, "reborn"); cm == nil {
		t.Error("ConfigMap missing after the apply")
	}
	mustDelete(t, d, item, deployer.DeleteOptions{})
}

// A deployer that reports a Secret of another namespace, or one the
// DeployItem does not own, as its exportRef gets no exports from it: the
// provider reads with its own credentials, so following the claim would
// copy any Secret of the cluster into the item's exports.
func testForeignExportRef(t *testing.T, w *world) {
	other := localcluster.Namespace(t)
	for _, ns := range []string{other, w.namespace} {
		foreign := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Secret",
			"metadata": map[string]any{"name": "foreign-exports", "namespace": ns},
			"data":     map[string]any{external.ExportKey: "c2VjcmV0OiBzdG9sZW4="}}} // secret: stolen
		if _, err := w.client.Resource(secrets).Namespace(ns).Create(context.Background(), foreign, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	for name, ref := range map[string]map[string]any{
		"another namespace": {"name": "foreign-exports", "namespace": other},
		"not owned":         {"name": "foreign-exports"},
	} {
		item := w.item("rogue-"+strings.ReplaceAll(name, " ", "-"), testdeployer.Config{ExportRef: ref})
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := w.deployer().Apply(ctx, item)
		cancel()
		if err == nil || !strings.Contains(err.Error(), "exports are read only from") || res.Exports != nil {
			t.Errorf("%s: exports %v, err %v; want a refusal", name, res.Exports, err)
		}
	}
}
