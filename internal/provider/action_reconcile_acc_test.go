package provider

import (
	"context"
	"fmt"
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
	if tfcli.Name() != tfcli.TerraformCurrent {
		t.Skipf("%s has no actions (Terraform ≥ 1.14; OpenTofu has none): landscaper_reconcile is not tested there", tfcli.Name())
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
    installation = landscaper_installation.app.id
    targets      = [landscaper_target.cluster.target]
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
// and waits until it does; the returned func lifts the ban.
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
	lift := func() {
		_ = adm.ValidatingAdmissionPolicyBindings().Delete(ctx, policyName, metav1.DeleteOptions{})
		_ = adm.ValidatingAdmissionPolicies().Delete(ctx, policyName, metav1.DeleteOptions{})
	}
	e.t.Cleanup(lift)
	// The API server loads policies asynchronously: probe with dry runs.
	probe := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: e.namespace}}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		_, err := e.kube.CoreV1().ConfigMaps(e.namespace).Create(ctx, probe, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil && strings.Contains(err.Error(), "denied by the test") {
			return lift
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("the admission policy did not take effect: %v", err)
		}
	}
}

// landscaper_reconcile redeploys an installation whose configuration did
// not change: invoked with -invoke and from an action_trigger, it puts
// back an object deleted by hand and shows its progress, and the plan
// after it is empty. A failing reconcile fails the apply, and the next
// plan proposes the repair.
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

	// A reconcile that fails: the apply fails naming the item, and the
	// next plan proposes the repair, which succeeds once the cause is gone.
	lift := e.denyConfigMap("reconciled")
	e.deleteConfigMap("reconciled")
	out, err := w.run("apply", "-input=false", "-auto-approve", "-invoke=action.landscaper_reconcile.now")
	if err == nil || !strings.Contains(out, "Reconcile Failed") || !strings.Contains(out, "denied by the test") {
		t.Fatalf("a failing reconcile: err=%v, want Reconcile Failed naming the cause:\n%s", err, out)
	}
	t.Logf("failing apply -invoke:\n%s", out)
	lift()
	out, err = w.run("plan", "-input=false", "-detailed-exitcode")
	if err == nil || !strings.Contains(out, "Drifted") {
		t.Fatalf("the plan after a failed reconcile proposes no repair (err=%v):\n%s", err, out)
	}
	w.mustRun("apply", "-input=false", "-auto-approve")
	if err := present(nil); err != nil {
		t.Fatal(err)
	}
	w.mustRun("destroy", "-input=false", "-auto-approve")
	if err := e.configMapsGone("reconciled")(nil); err != nil {
		t.Error(err)
	}
}
