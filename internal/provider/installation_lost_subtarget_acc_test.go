package provider

import (
	"fmt"
	"testing"
)

// lostSubtargetInstallation is testdata/lost-subtarget: its items reach
// the cluster only through a target a subinstallation exports.
func (e *accEnv) lostSubtargetInstallation(kubeconfig string, full bool) string {
	return fmt.Sprintf(`
resource "landscaper_installation" "subtarget" {
  name      = "subtarget"
  namespace = %[1]q
  blueprint = { path = %[2]q }
  imports = {
    data = { kubeconfig = file(%[3]q), namespace = %[1]q, full = %[4]t }
  }
}
`, e.namespace, blueprintDir(e.t, "lost-subtarget"), kubeconfig, full)
}

// After a lost state, an apply finds the inventory also in a cluster that
// no target import of the root names (here one a subinstallation exports):
// it prunes the object an item no longer renders and the item the
// blueprint no longer renders, and destroy leaves nothing, no inventory
// either. Before, the inventory was read only through the root's target
// imports: b and c stayed, and so did the inventory after destroy.
func TestAccInstallation_lostStateTargetFromSubinstallation(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	kubeconfig := namespacedKubeconfig(t, e.namespace, "")
	w := newCLIWorkspace(t, e.lostSubtargetInstallation(kubeconfig, true))
	w.mustRun("apply", "-auto-approve", "-input=false")
	for _, name := range []string{"a", "b", "c"} {
		if err := e.configMapData(name, map[string]string{"k": "v"})(nil); err != nil {
			t.Fatal(err)
		}
	}
	if e.inventoryParent("subtarget") == nil {
		t.Fatal("no inventory was written")
	}

	w.mustRun("state", "rm", "landscaper_installation.subtarget")
	w.write(e.lostSubtargetInstallation(kubeconfig, false))
	w.mustRun("apply", "-auto-approve", "-input=false")
	if err := e.configMapData("a", map[string]string{"k": "v"})(nil); err != nil {
		t.Error(err)
	}
	if err := e.noConfigMapsIn(e.namespace, "b", "c")(nil); err != nil {
		t.Errorf("after the lost state, the apply left what the blueprint no longer renders: %v", err)
	}
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Errorf("the plan after the converging apply is not empty (%v):\n%s", err, out)
	}

	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.noConfigMapsIn(e.namespace, "a", "b", "c")(nil); err != nil {
		t.Errorf("destroy left objects: %v", err)
	}
	if p := e.inventoryParent("subtarget"); p != nil {
		t.Errorf("destroy left the inventory %s/%s", p.Namespace, p.Name)
	}
}
