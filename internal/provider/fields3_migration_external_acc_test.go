package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestAccMigration_externalItemAdopted (issue 33, item 6): the recorded
// root canary holds an item of Landscaper's mock deployer, which the
// built-in mock deployer cannot take over (TestAccMigration_recordedLandscaper
// shows the refusal). Routed to an external deployer on Landscaper's host
// cluster, the import adopts the DeployItem Landscaper's controllers
// made as it is: same UID, nothing written to it (no new job), the
// exports as Landscaper's deployer reported them, and the next plan is
// empty. (What the first apply after it does is tested against the
// project's test deployer, TestExternal/Adoption.)
func TestAccMigration_externalItemAdopted(t *testing.T) {
	e := newRecordedEnv(t, "harbor-installed")
	mockItem := func() *unstructured.Unstructured {
		t.Helper()
		list, err := e.dyn.Resource(external.DeployItems).Namespace(e.namespace).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for i, di := range list.Items {
			if typ, _, _ := unstructured.NestedString(di.Object, "spec", "type"); typ == "landscaper.gardener.cloud/mock" {
				return &list.Items[i]
			}
		}
		t.Fatal("the replay holds no DeployItem of the mock deployer")
		return nil
	}
	before := mockItem()
	provider := fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %q }
  registry   = { cache_dir = %q }
  external_deployers = [{ types = ["landscaper.gardener.cloud/mock"], namespace = "elsewhere" }]
}
`, localcluster.KubeconfigPath(t), e.cacheDir)
	w := newCLIWorkspace(t, provider+e.importsHCL("canary"))
	out := w.mustRun("plan", "-input=false", "-generate-config-out=canary.tf")
	if !strings.Contains(out, "1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Fatalf("the plan of the import does more than import:\n%s", out)
	}
	w.mustRun("apply", "-auto-approve", "-input=false")
	after := mockItem()
	if after.GetUID() != before.GetUID() || after.GetResourceVersion() != before.GetResourceVersion() {
		t.Errorf("the import wrote Landscaper's DeployItem: uid %s version %s, before uid %s version %s",
			after.GetUID(), after.GetResourceVersion(), before.GetUID(), before.GetResourceVersion())
	}
	if _, err := os.Stat(filepath.Join(w.dir, "canary.tf")); err != nil {
		t.Fatal(err)
	}
	// The guide: remove the import block once applied (canary.tf stays).
	w.write(provider)
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after the import is not empty (%v):\n%s", err, out)
	}
	w.write(provider + `
output "rollout" { value = landscaper_installation.canary.exports.rollout }
`)
	w.mustRun("apply", "-auto-approve", "-input=false") // records the output only
	if out := w.mustRun("output", "-json", "rollout"); !strings.Contains(out, `"stage":"canary"`) {
		t.Errorf("the export rollout is not the one Landscaper's mock deployer reported: %s", out)
	}
	// A destroy would need Landscaper's mock deployer to uninstall; the
	// state is dropped instead, as the guide's rollback does.
	w.mustRun("state", "rm", "landscaper_installation.canary")
	if mockItem().GetResourceVersion() != before.GetResourceVersion() {
		t.Error("the DeployItem was written after all")
	}
}
