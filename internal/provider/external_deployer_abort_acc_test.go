package provider

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testdeployer"
)

// extAbortTimeout is the abort timeout of these tests' provider blocks.
const extAbortTimeout = 4 * time.Second

// providerTimeoutsHCL hands testdeployer.Type to the test deployer, with
// the abort timeout extAbortTimeout and more deploy_item_timeouts
// entries (HCL, or "").
func (e *extEnv) providerTimeoutsHCL(more string) string {
	return fmt.Sprintf(`
provider "landscaper" {
  kubernetes           = { config_path = %q }
  external_deployers   = [{ types = [%q], namespace = %q }]
  deploy_item_timeouts = { pickup = "30s", abort = %q%s }
}
`, localcluster.KubeconfigPath(e.t), testdeployer.Type, e.namespace, extAbortTimeout.String(), more)
}

// externalItem is an item of the test deployer on the target "cluster"
// with extra item fields (YAML lines, or "") that writes the ConfigMap
// name with value, taking delay ("": none) to do it.
func (e *extEnv) externalItem(name, extra, value, delay string) string {
	item := fmt.Sprintf("- name: %s\n  type: %s\n  target: {import: cluster}\n", name, testdeployer.Type)
	if extra != "" {
		item += indentLines(strings.TrimRight(extra, "\n"), "  ") + "\n"
	}
	fields := fmt.Sprintf("configMap: {name: %s, namespace: %s, data: {value: %q}}", name, e.namespace, value)
	if delay != "" {
		fields += ", delay: " + delay
	}
	return item + fmt.Sprintf("  config: {apiVersion: testdeployer.landscaper-terraform.io/v1alpha1, kind: ProviderConfiguration, %s}\n", fields)
}

// deployItem returns the DeployItem of the item named item (the
// provider names it <item>-<hash>); nil when there is none.
func (e *extEnv) deployItem(item string) *unstructured.Unstructured {
	e.t.Helper()
	list, err := e.client.Resource(external.DeployItems).Namespace(e.namespace).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	for i, di := range list.Items {
		if strings.HasPrefix(di.GetName(), item+"-") {
			return &list.Items[i]
		}
	}
	return nil
}

// awaitDeployItem follows the DeployItem of item with a watch until done
// holds for it, for at most a minute, and returns it.
func (e *extEnv) awaitDeployItem(item string, done func(*unstructured.Unstructured) bool) *unstructured.Unstructured {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res := e.client.Resource(external.DeployItems).Namespace(e.namespace)
	list, err := res.List(ctx, metav1.ListOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	for i, di := range list.Items {
		if strings.HasPrefix(di.GetName(), item+"-") && done(&list.Items[i]) {
			return &list.Items[i]
		}
	}
	w, err := res.Watch(ctx, metav1.ListOptions{ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		e.t.Fatal(err)
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		di, ok := ev.Object.(*unstructured.Unstructured)
		if ok && ev.Type != watch.Deleted && strings.HasPrefix(di.GetName(), item+"-") && done(di) {
			return di
		}
	}
	e.t.Fatalf("DeployItem of %s: condition not met within a minute", item)
	return nil
}

func phaseIs(phase string) func(*unstructured.Unstructured) bool {
	return func(di *unstructured.Unstructured) bool { return nested(di, "status", "phase") == phase }
}

// nested is a field of obj as a string ("" if unset).
func nested(obj *unstructured.Unstructured, path ...string) string {
	v, _, _ := unstructured.NestedFieldNoCopy(obj.Object, path...)
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// assertAborted checks that the DeployItem of item carries the abort
// request and that the test deployer stopped on it (its own lastError),
// so the request reached it before the provider ended the job itself.
func (e *extEnv) assertAborted(item string) *unstructured.Unstructured {
	e.t.Helper()
	di := e.deployItem(item)
	if di == nil {
		e.t.Fatalf("no DeployItem of %s", item)
	}
	if got := di.GetAnnotations()[external.AnnotationOperation]; got != external.OperationAbort {
		e.t.Errorf("DeployItem %s: operation annotation %q, want the abort request", di.GetName(), got)
	}
	if nested(di, "status", "phase") != "Failed" || nested(di, "status", "lastError", "reason") != testdeployer.ReasonAborted ||
		nested(di, "status", "jobIDFinished") != nested(di, "status", "jobID") {
		e.t.Errorf("DeployItem %s: the deployer did not end the job as aborted: %v", di.GetName(), di.Object["status"])
	}
	return di
}

// assertRecorded checks that state and inventory record the
// installation res after a failed apply: the resource is in state with
// each item among its deploy_item_errors, and the inventory record
// names each item's DeployItem.
func (e *extEnv) assertRecorded(w *cliWorkspace, res string, items ...string) {
	e.t.Helper()
	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string         `json:"address"`
					Values  map[string]any `json:"values"`
				} `json:"resources"`
			} `json:"root_module"`
		} `json:"values"`
	}
	if err := json.Unmarshal([]byte(w.mustRun("show", "-json")), &state); err != nil {
		e.t.Fatal(err)
	}
	var errs map[string]any
	for _, r := range state.Values.RootModule.Resources {
		if r.Address == "landscaper_installation."+res {
			errs, _ = r.Values["deploy_item_errors"].(map[string]any)
		}
	}
	record := e.inventoryRecord(res)
	for _, item := range items {
		if got := fmt.Sprint(errs[e.namespace+"."+res+"/"+item]); !strings.HasPrefix(got, "Failed") {
			e.t.Errorf("state: deploy_item_errors of %s = %q, want Failed (all: %v)", item, got, errs)
		}
		if di := e.deployItem(item); di == nil || !bytes.Contains(record, []byte(di.GetName())) {
			e.t.Errorf("the inventory record does not name the DeployItem of %s", item)
		}
	}
}

// assertConverged checks the apply after a failed one: each item's
// ConfigMap has value, its DeployItem (the one of uids, unless nil)
// succeeded without the abort request, and the plan after it is empty.
func (e *extEnv) assertConverged(w *cliWorkspace, uids map[string]string, value string, items ...string) {
	e.t.Helper()
	for _, item := range items {
		if err := e.configMapData(item, map[string]string{"value": value})(nil); err != nil {
			e.t.Error(err)
		}
		di := e.deployItem(item)
		if di == nil || nested(di, "status", "phase") != "Succeeded" || (uids != nil && uids[di.GetName()] != string(di.GetUID())) {
			e.t.Errorf("DeployItem of %s after the converging apply: %v (uids before %v)", item, di, uids)
		} else if _, has := di.GetAnnotations()[external.AnnotationOperation]; has {
			e.t.Errorf("DeployItem %s kept the abort request", di.GetName())
		}
	}
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		e.t.Errorf("the plan after the converging apply is not empty (%v):\n%s", err, out)
	}
}

// assertDestroyed checks that destroy left nothing of res.
func (e *extEnv) assertDestroyed(res string, items ...string) {
	e.t.Helper()
	if err := e.configMapsGone(items...)(nil); err != nil {
		e.t.Error(err)
	}
	if err := e.contractObjectsGone(); err != nil {
		e.t.Error(err)
	}
	if p := e.inventoryParent(res); p != nil {
		e.t.Errorf("destroy left the inventory %s/%s", p.Namespace, p.Name)
	}
}

// The item's timeout (spec.timeout from the template, else the
// provider's progressing_default) passes while the deployer works on an
// update: the apply fails with the timeout and ERR_TIMEOUT, the deployer
// gets the abort request and stops, state and inventory record the
// items; the next apply, the deployer fast again, converges on the same
// DeployItems; destroy cleans up. (An update, not a create: a failed
// create is tainted, and its replacement would first have the deployer
// uninstall as slowly as the config says, which the timeout stops too.)
func TestAccExternalDeployer_progressingTimeout(t *testing.T) {
	requireAcc(t)
	e := newExtEnv(t)
	const res = "timed"
	config := func(value, delay string) string {
		items := e.externalItem("spec", "timeout: 4s", value, delay) + e.externalItem("dflt", "", value, delay)
		return e.providerTimeoutsHCL(`, progressing_default = "5s"`) + inlineInstallation(e.targetHCL, res, e.namespace, items)
	}
	w := newCLIWorkspace(t, config("1", ""))
	w.mustRun("apply", "-auto-approve", "-input=false")
	uids := e.deployItemUIDs()

	w.write(config("2", "1m"))
	out, err := w.run("apply", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("apply of items slower than their timeout succeeded:\n%s", out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		`timed/spec \(Failed\): deploy item "spec": DeployItem \S+: the deployer did not finish within the timeout of 4s after it picked the job up; the deployer stopped \(it reported phase Failed: Reconcile/Aborted: the job was aborted\) \(ERR_TIMEOUT`,
		`timed/dflt \(Failed\): deploy item "dflt": DeployItem \S+: the deployer did not finish within the timeout of 5s after it picked the job up; the deployer stopped \(it reported phase Failed: Reconcile/Aborted: the job was aborted\) \(ERR_TIMEOUT`,
	} {
		if !regexp.MustCompile(want).MatchString(flat) {
			t.Errorf("apply output does not match %s:\n%s", want, out)
		}
	}
	for item, timeout := range map[string]string{"spec": "4s", "dflt": "5s"} {
		if di := e.assertAborted(item); nested(di, "spec", "timeout") != timeout {
			t.Errorf("DeployItem of %s: spec.timeout %q, want %s", item, nested(di, "spec", "timeout"), timeout)
		}
		if err := e.configMapData(item, map[string]string{"value": "1"})(nil); err != nil {
			t.Errorf("the aborted deployer changed what it had deployed: %v", err)
		}
	}
	e.assertRecorded(w, res, "spec", "dflt")

	w.write(config("3", ""))
	w.mustRun("apply", "-auto-approve", "-input=false")
	e.assertConverged(w, uids, "3", "spec", "dflt")
	w.mustRun("destroy", "-auto-approve", "-input=false")
	e.assertDestroyed(res, "spec", "dflt")
}

// slowApply starts an apply of res whose one external item "slow" takes
// a minute, and returns once the deployer works on it.
func (e *extEnv) slowApply(res string) (w *cliWorkspace, cmd *exec.Cmd, wait func() (string, error)) {
	e.t.Helper()
	// Slow to install only: the replacement of a tainted create deletes
	// it through the deployer at once.
	w = newCLIWorkspace(e.t, e.providerTimeoutsHCL("")+inlineInstallation(e.targetHCL, res, e.namespace, e.externalItem("slow", "", "1", "1m, delayInstallOnly: true")))
	cmd, wait = w.start("apply", "-auto-approve", "-input=false")
	e.awaitDeployItem("slow", phaseIs("Progressing"))
	return w, cmd, wait
}

// Ctrl-C while an external item is progressing: the provider sends
// Landscaper's abort request within the abort timeout, the deployer
// stops, the apply ends, and state and inventory record the item. The
// next apply converges on the same DeployItem; destroy leaves nothing.
func TestAccExternalDeployer_interruptAborts(t *testing.T) {
	requireAcc(t)
	e := newExtEnv(t)
	const res = "interrupted"
	w, cmd, wait := e.slowApply(res)
	out, interruptedAt := w.interrupt(cmd, wait)
	if !strings.Contains(out, "nterrupt") {
		t.Errorf("apply output does not say it was interrupted:\n%s", out)
	}
	di := e.assertAborted("slow")
	// The abort-time annotation is the provider's clock, in seconds.
	sent, err := time.Parse(time.RFC3339, di.GetAnnotations()[external.AnnotationAbortTime])
	if err != nil || sent.Before(interruptedAt.Truncate(time.Second)) || sent.After(interruptedAt.Add(extAbortTimeout)) {
		t.Errorf("abort request sent at %v (%v), the interrupt was at %v", sent, err, interruptedAt)
	}
	if err := e.configMapsGone("slow")(nil); err != nil {
		t.Errorf("the aborted deployer deployed: %v", err)
	}
	e.assertRecorded(w, res, "slow")

	// The failed create is tainted: Terraform replaces it, through the
	// deployer's deletion and a new DeployItem.
	w.write(e.providerTimeoutsHCL("") + inlineInstallation(e.targetHCL, res, e.namespace, e.externalItem("slow", "", "2", "")))
	w.mustRun("apply", "-auto-approve", "-input=false")
	e.assertConverged(w, nil, "2", "slow")
	w.mustRun("destroy", "-auto-approve", "-input=false")
	e.assertDestroyed(res, "slow")
}

// SIGKILL of the CLI and its provider while an external item is
// progressing: nothing is recorded in state, the deployer goes on. The
// next apply takes the same DeployItem over with a new job (the deployer
// drops the old one), makes no second one, and converges; destroy
// leaves nothing.
func TestAccExternalDeployer_killedApplyConverges(t *testing.T) {
	requireAcc(t)
	e := newExtEnv(t)
	const res = "killed"
	w, cmd, wait := e.slowApply(res)
	// The CLI and its provider together, as a crash would.
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
	_, _ = wait()
	uids := e.deployItemUIDs()
	if len(uids) != 1 {
		t.Fatalf("DeployItems after the kill: %v", uids)
	}

	w.write(e.providerTimeoutsHCL("") + inlineInstallation(e.targetHCL, res, e.namespace, e.externalItem("slow", "", "2", "")))
	w.mustRun("apply", "-auto-approve", "-input=false")
	if got := e.deployItemUIDs(); len(got) != 1 {
		t.Errorf("DeployItems after the converging apply: %v, before %v", got, uids)
	}
	e.assertConverged(w, uids, "2", "slow")
	w.mustRun("destroy", "-auto-approve", "-input=false")
	e.assertDestroyed(res, "slow")
}
