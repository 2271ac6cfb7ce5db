package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/tfcli"
)

// skipWithoutActions skips on the CLIs without actions.
func skipWithoutActions(t *testing.T) {
	t.Helper()
	switch tfcli.Name() {
	case tfcli.Terraform:
		t.Skip("Terraform 1.5 has no actions (Terraform ≥ 1.14): landscaper_reconcile is not tested there")
	case tfcli.OpenTofu:
		t.Skip("OpenTofu has no actions: landscaper_reconcile is not tested there")
	}
}

// reconcileConfig is an installation deploying the ConfigMap
// "reconciled", the action on it, and a terraform_data whose update
// (a changed trigger) invokes the action.
func (e *accEnv) reconcileConfig(trigger string) string {
	return inlineInstallation(e.targetHCL, "app", e.namespace, manifestItem("config", "",
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: reconciled, namespace: "+e.namespace+"}, data: {a: b}}")) +
		fmt.Sprintf(`
action "landscaper_reconcile" "now" {
  config {
    installation  = landscaper_installation.app.id
    targets       = [landscaper_target.cluster.target]
    reconcile_key = landscaper_installation.app.reconcile_key
  }
}

resource "terraform_data" "redeploy" {
  input = %q
  lifecycle {
    action_trigger {
      events  = [after_update]
      actions = [action.landscaper_reconcile.now]
    }
  }
}
`, trigger)
}

// deleteConfigMap deletes a ConfigMap of the test namespace by hand.
func (e *accEnv) deleteConfigMap(name string) {
	e.t.Helper()
	if err := e.kube.CoreV1().ConfigMaps(e.namespace).Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil {
		e.t.Fatal(err)
	}
}

// denyConfigMap makes the API server refuse to create the ConfigMap name
// in the test namespace (a ValidatingAdmissionPolicy, reason Invalid),
// and waits until it does; the returned func lifts the ban and waits
// until the API server no longer applies it.
func (e *accEnv) denyConfigMap(name string) func() {
	e.t.Helper()
	ctx := context.Background()
	adm := e.kube.AdmissionregistrationV1()
	policyName := "deny-" + e.namespace
	invalid := metav1.StatusReasonInvalid
	policy := &admissionv1.ValidatingAdmissionPolicy{ObjectMeta: metav1.ObjectMeta{Name: policyName},
		Spec: admissionv1.ValidatingAdmissionPolicySpec{
			MatchConstraints: &admissionv1.MatchResources{ResourceRules: []admissionv1.NamedRuleWithOperations{{
				RuleWithOperations: admissionv1.RuleWithOperations{Operations: []admissionv1.OperationType{admissionv1.Create},
					Rule: admissionv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"}}}}}},
			Validations: []admissionv1.Validation{{Expression: fmt.Sprintf("object.metadata.name != %q", name),
				Message: "denied by the test", Reason: &invalid}},
		}}
	if _, err := adm.ValidatingAdmissionPolicies().Create(ctx, policy, metav1.CreateOptions{}); err != nil {
		e.t.Fatal(err)
	}
	binding := &admissionv1.ValidatingAdmissionPolicyBinding{ObjectMeta: metav1.ObjectMeta{Name: policyName},
		Spec: admissionv1.ValidatingAdmissionPolicyBindingSpec{PolicyName: policyName,
			ValidationActions: []admissionv1.ValidationAction{admissionv1.Deny},
			MatchResources: &admissionv1.MatchResources{NamespaceSelector: &metav1.LabelSelector{
				MatchLabels: map[string]string{"kubernetes.io/metadata.name": e.namespace}}}}}
	if _, err := adm.ValidatingAdmissionPolicyBindings().Create(ctx, binding, metav1.CreateOptions{}); err != nil {
		e.t.Fatal(err)
	}
	remove := func() {
		_ = adm.ValidatingAdmissionPolicyBindings().Delete(ctx, policyName, metav1.DeleteOptions{})
		_ = adm.ValidatingAdmissionPolicies().Delete(ctx, policyName, metav1.DeleteOptions{})
	}
	e.t.Cleanup(remove)
	// The API server loads and drops policies asynchronously: probe with dry runs.
	probe := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: e.namespace}}
	waitDenied := func(denied bool) {
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			_, err := e.kube.CoreV1().ConfigMaps(e.namespace).Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
			if (err != nil && strings.Contains(err.Error(), "denied by the test")) == denied {
				return
			}
			if time.Now().After(deadline) {
				e.t.Fatalf("the admission policy did not take effect (denied=%v): %v", denied, err)
			}
		}
	}
	waitDenied(true)
	return func() {
		remove()
		waitDenied(false)
	}
}

// landscaper_reconcile redeploys an installation whose configuration did
// not change: invoked with -invoke and from an action_trigger, it puts
// back an object deleted by hand and shows its progress, and the plan
// after it is empty. A failing reconcile fails the apply and leaves the
// installation's state true: the next plan shows phase Failed with the
// item's error from the job and proposes the retry, which succeeds once
// the cause is gone; the plan after it is empty.
func TestAccReconcileAction(t *testing.T) {
	requireAcc(t)
	skipWithoutActions(t)
	e := newAccEnv(t)
	w := newCLIWorkspace(t, e.reconcileConfig("1"))
	w.mustRun("init", "-input=false", "-plugin-dir="+providerMirror(t))
	w.mustRun("apply", "-input=false", "-auto-approve")
	present := e.configMapData("reconciled", map[string]string{"a": "b"})

	e.deleteConfigMap("reconciled")
	out := w.mustRun("apply", "-input=false", "-auto-approve", "-invoke=action.landscaper_reconcile.now")
	t.Logf("apply -invoke:\n%s", out)
	if err := present(nil); err != nil {
		t.Fatalf("the reconcile did not put the ConfigMap back: %v\n%s", err, out)
	}
	for _, want := range []string{"deploy item started", "reconciled in", "phase Succeeded"} {
		if !strings.Contains(out, want) {
			t.Errorf("apply -invoke shows no progress %q:\n%s", want, out)
		}
	}
	if out, err := w.run("plan", "-input=false", "-detailed-exitcode"); err != nil {
		t.Fatalf("plan after the reconcile is not empty (%v):\n%s", err, out)
	}

	// From a lifecycle action_trigger.
	e.deleteConfigMap("reconciled")
	w.write(e.reconcileConfig("2"))
	w.mustRun("apply", "-input=false", "-auto-approve")
	if err := present(nil); err != nil {
		t.Fatalf("the action_trigger's reconcile did not put the ConfigMap back: %v", err)
	}

	// A reconcile that fails (an admission policy a cluster admin added
	// refuses the object): the apply fails naming the item and the cause.
	lift := e.denyConfigMap("reconciled")
	e.deleteConfigMap("reconciled")
	out, err := w.run("apply", "-input=false", "-auto-approve", "-invoke=action.landscaper_reconcile.now")
	if err == nil || !strings.Contains(out, "Reconcile Failed") || !strings.Contains(out, "denied by the test") {
		t.Fatalf("a failing reconcile: err=%v, want Reconcile Failed naming the cause:\n%s", err, out)
	}
	t.Logf("failing apply -invoke:\n%s", out)
	// The next plan reads the job's outcome from the inventory: phase
	// Failed, the item's error from the job, and an update (the retry).
	out, err = w.run("plan", "-input=false", "-detailed-exitcode", "-no-color")
	t.Logf("plan after the failed reconcile (err=%v):\n%s", err, out)
	if err == nil || !regexp.MustCompile(`phase\s+= "Failed" -> "Succeeded"`).MatchString(out) ||
		!strings.Contains(out, "Failed: reconcile job ") || !strings.Contains(out, "denied by the test") || !strings.Contains(out, "1 to change") {
		t.Errorf("the plan after a failed reconcile does not show phase Failed, the item's error and the retry")
	}
	// The refresh records it in the state, too.
	w.mustRun("apply", "-refresh-only", "-input=false", "-auto-approve")
	show := w.mustRun("state", "show", "-no-color", "landscaper_installation.app")
	if !regexp.MustCompile(`phase\s+= "Failed"`).MatchString(show) || !strings.Contains(show, "Failed: reconcile job ") {
		t.Errorf("the state after a refresh does not record the failed reconcile:\n%s", show)
	}
	// Fix the cause: the apply retries and succeeds; the plan after it is empty.
	lift()
	w.mustRun("apply", "-input=false", "-auto-approve")
	if err := present(nil); err != nil {
		t.Fatal(err)
	}
	if show := w.mustRun("state", "show", "-no-color", "landscaper_installation.app"); !regexp.MustCompile(`phase\s+= "Succeeded"`).MatchString(show) {
		t.Errorf("the retry did not leave phase Succeeded:\n%s", show)
	}
	if out, err := w.run("plan", "-input=false", "-detailed-exitcode"); err != nil {
		t.Fatalf("plan after the retry is not empty (%v):\n%s", err, out)
	}
	w.mustRun("destroy", "-input=false", "-auto-approve")
	if err := e.configMapsGone("reconciled")(nil); err != nil {
		t.Error(err)
	}
}

// An installation whose target import is provider_targets (no
// landscaper_target in the configuration) is reconciled with the action's
// provider_targets and provider_target_references.
func TestAccReconcileAction_providerTargets(t *testing.T) {
	requireAcc(t)
	skipWithoutActions(t)
	e := newAccEnv(t)
	config := e.providerTargetsInstallation("app", "rec-a") + `
action "landscaper_reconcile" "now" {
  config {
    installation               = landscaper_installation.app.id
    provider_targets           = landscaper_installation.app.provider_targets
    provider_target_references = landscaper_installation.app.provider_target_references
    reconcile_key              = landscaper_installation.app.reconcile_key
  }
}
`
	w := newCLIWorkspace(t, config)
	w.mustRun("init", "-input=false", "-plugin-dir="+providerMirror(t))
	w.mustRun("apply", "-input=false", "-auto-approve")
	e.deleteConfigMap("rec-a")
	out := w.mustRun("apply", "-input=false", "-auto-approve", "-invoke=action.landscaper_reconcile.now")
	if err := e.configMapData("rec-a", map[string]string{"item": "rec-a"})(nil); err != nil {
		t.Fatalf("the reconcile did not put the ConfigMap back: %v\n%s", err, out)
	}
	if out, err := w.run("plan", "-input=false", "-detailed-exitcode"); err != nil {
		t.Fatalf("plan after the reconcile is not empty (%v):\n%s", err, out)
	}
	w.mustRun("destroy", "-input=false", "-auto-approve")
	if err := e.configMapsGone("rec-a")(nil); err != nil {
		t.Error(err)
	}
}
