package provider

import (
	"context"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// interruptConfig: a ConfigMap, then a Deployment that becomes ready only
// when schedulable, so an apply can be caught while it waits.
func (e *accEnv) interruptConfig(schedulable bool) string {
	if schedulable {
		return e.gatedInstallation("interrupted", "slow", "terminationGracePeriodSeconds: 0")
	}
	return e.gatedInstallation("interrupted", "slow", `nodeSelector: {no-such-node: "true"}`)
}

// gatedInstallation is an installation of a ConfigMap, then a Deployment
// named deployment whose pod spec has the lines podSpec: with a node
// selector no node matches, the apply waits for it until the test lets it
// schedule.
func (e *accEnv) gatedInstallation(resourceName, deployment string, podSpec ...string) string {
	return e.gatedInstallationOn(e.targetHCL, e.namespace, resourceName, deployment, podSpec...)
}

// gatedInstallationOn is gatedInstallation deploying to the target
// "cluster" of targetHCL, in namespace ("": the target's kubeconfig's).
func (e *accEnv) gatedInstallationOn(targetHCL, namespace, resourceName, deployment string, podSpec ...string) string {
	ns := ""
	if namespace != "" {
		ns = ", namespace: " + namespace
	}
	first := manifestItem("first", "", fmt.Sprintf(`{apiVersion: v1, kind: ConfigMap, metadata: {name: first%s}, data: {a: b}}`, ns))
	gated := manifestItem(deployment, "dependsOn: [first]", fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: %[2]s%[1]s}
spec:
  replicas: 1
  selector: {matchLabels: {app: %[2]s}}
  template:
    metadata: {labels: {app: %[2]s}}
    spec:
      %[3]s
      containers: [{name: c, image: registry.k8s.io/pause:3.10}]`, ns, deployment, strings.Join(podSpec, "\n      ")))
	return inlineInstallation(targetHCL, resourceName, e.namespace, first+gated)
}

// waitForDeployment waits until the apply has created the Deployment, i.e.
// the job is in the middle of waiting for its readiness.
func (e *accEnv) waitForDeployment(name string) {
	e.t.Helper()
	e.waitForDeploymentIn(e.namespace, name)
}

// waitForDeploymentIn is waitForDeployment in namespace.
func (e *accEnv) waitForDeploymentIn(namespace, name string) {
	e.t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		_, err := e.kube.AppsV1().Deployments(namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err == nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	e.t.Fatalf("deployment %s was never created", name)
}

// assertNothingLeft checks the cluster after destroy: no object of the
// installation is left behind.
func (e *accEnv) assertNothingLeft() {
	e.t.Helper()
	if _, err := e.kube.AppsV1().Deployments(e.namespace).Get(context.Background(), "slow", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		e.t.Errorf("deployment slow left behind after destroy (err=%v)", err)
	}
	if err := e.configMapsGone("first")(nil); err != nil {
		e.t.Error(err)
	}
}

// Ctrl-C during apply: the CLI asks the provider to stop, the job ends
// promptly with the running item failed as interrupted, and the state
// records what was deployed. The next apply converges and destroy leaves
// nothing behind.
func TestAccInstallation_interruptedApplyConverges(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	w := newCLIWorkspace(t, e.interruptConfig(false))

	cmd, wait := w.start("apply", "-auto-approve", "-input=false")
	start := time.Now()
	e.waitForDeployment("slow")
	t.Logf("deployment created after %s", time.Since(start))
	out, interruptedAt := w.interrupt(cmd, wait)
	if took := time.Since(interruptedAt); took > 30*time.Second {
		t.Errorf("interrupted apply took %s to stop", took)
	}
	if !strings.Contains(out, "nterrupt") {
		t.Errorf("apply output does not say it was interrupted:\n%s", out)
	}
	state := w.mustRun("state", "list")
	if !strings.Contains(state, "landscaper_installation.interrupted") {
		t.Fatalf("interrupted create was not recorded in state:\n%s\napply output:\n%s", state, out)
	}

	w.write(e.interruptConfig(true))
	start = time.Now()
	w.mustRun("apply", "-auto-approve", "-input=false")
	t.Logf("converging apply took %s", time.Since(start))
	if err := e.configMapData("first", map[string]string{"a": "b"})(nil); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	w.mustRun("destroy", "-auto-approve", "-input=false")
	t.Logf("destroy took %s", time.Since(start))
	e.assertNothingLeft()
}

// A killed CLI records nothing: the objects created so far exist in the
// cluster but not in state. The next apply takes them over (they carry
// the deploy item's ownership label) instead of failing on "already
// exists", and destroy then removes them.
func TestAccInstallation_killedApplyConverges(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	w := newCLIWorkspace(t, e.interruptConfig(false))

	cmd, wait := w.start("apply", "-auto-approve", "-input=false")
	e.waitForDeployment("slow")
	// Kill the CLI and its provider process together, as a crash would.
	if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
		_ = cmd.Process.Kill()
	}
	_, _ = wait()

	w.write(e.interruptConfig(true))
	w.mustRun("apply", "-auto-approve", "-input=false")
	w.mustRun("destroy", "-auto-approve", "-input=false")
	e.assertNothingLeft()
}

// requireAcc gates tests that drive the CLI themselves exactly as
// resource.Test gates the others: they run with TF_ACC=1, which make test sets.
func requireAcc(t *testing.T) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: runs with TF_ACC=1 (make test)")
	}
}
