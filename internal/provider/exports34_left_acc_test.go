package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

func exports34LeftHCL(e *accEnv, leave bool) string {
	return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "left" {
  name      = "left"
  namespace = %[1]q
  blueprint = { path = %[2]q }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[1]q, leave = %[3]t }
  }
}
`, e.namespace, blueprintDir(e.t, "exports34-left"), leave)
}

// A field another manager took shows in the plan with that manager's
// name, and the apply takes it back; listed in leftToOthers, the next
// plan is empty and the apply leaves the other manager's value.
func TestAccExports34_fieldsLeftToOthers(t *testing.T) {
	e := newAccEnv(t)
	w := newCLIWorkspace(t, exports34LeftHCL(e, false))
	defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
	w.mustRun("apply", "-auto-approve")
	deployments := e.kube.AppsV1().Deployments(e.namespace)
	scale := func() {
		t.Helper()
		if _, err := deployments.Patch(context.Background(), "web", types.MergePatchType, []byte(`{"spec":{"replicas":3}}`),
			metav1.PatchOptions{FieldManager: "hpa-controller"}); err != nil {
			t.Fatal(err)
		}
	}
	replicas := func() int32 {
		t.Helper()
		d, err := deployments.Get(context.Background(), "web", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return *d.Spec.Replicas
	}

	scale()
	out := w.mustRun("plan")
	if !strings.Contains(out, `.spec.replicas (held by field manager \"hpa-controller\")`) {
		t.Fatalf("the plan does not name the manager holding the drifted field:\n%s", out)
	}
	w.mustRun("apply", "-auto-approve")
	if n := replicas(); n != 2 {
		t.Fatalf("the default apply left %d replicas, want the manifest's 2 back", n)
	}

	scale()
	w.write(exports34LeftHCL(e, true))
	w.mustRun("apply", "-auto-approve")
	if n := replicas(); n != 3 {
		t.Fatalf("with .spec.replicas left to others the apply set %d replicas, want the other manager's 3", n)
	}
	if out := w.mustRun("plan"); !strings.Contains(out, "No changes.") {
		t.Fatalf("with .spec.replicas left to others the plan is not empty:\n%s", out)
	}
}
