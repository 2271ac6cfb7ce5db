package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// renameKeptTargets rewrites the installation's record as someone who may
// write Secrets in its namespace could: every target of the kept snapshot
// that takes its kubeconfig from the provider block as from is renamed
// to, so it names another target_kubeconfigs entry, and the signature is
// dropped (an import reads without the key).
func (e *accEnv) renameKeptTargets(resourceName, from, to string) {
	e.t.Helper()
	var rec inventory.Record
	if err := json.Unmarshal(e.inventoryRecord(resourceName), &rec); err != nil {
		e.t.Fatal(err)
	}
	var kept map[string]json.RawMessage
	if err := json.Unmarshal(rec.Kept, &kept); err != nil || len(kept["snapshot"]) == 0 || kept["snapshot"][0] != '{' {
		e.t.Fatalf("the record keeps no snapshot object (%v): %.200s", err, rec.Kept)
	}
	var snap any
	if err := json.Unmarshal(kept["snapshot"], &snap); err != nil {
		e.t.Fatal(err)
	}
	renamed := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if md, ok := v["metadata"].(map[string]any); ok && md["name"] == from {
				if ann, ok := md["annotations"].(map[string]any); ok && ann[api.KubeconfigFromProviderAnnotation] != nil {
					md["name"] = to
					renamed++
				}
			}
			for _, c := range v {
				walk(c)
			}
		case []any:
			for _, c := range v {
				walk(c)
			}
		}
	}
	walk(snap)
	if renamed == 0 {
		e.t.Fatalf("the kept snapshot has no target %q from the provider block", from)
	}
	kept["snapshot"], _ = json.Marshal(snap)
	rec.Kept, _ = json.Marshal(kept)
	e.writeUnsignedRecord(resourceName, rec)
}

// Issue 32 (1), second form: target_kubeconfigs has the cluster the
// installation deployed to ("cluster") and another ("other", here the same
// API server in a namespace of its own, standing for a prod cluster). A
// record rewritten in "cluster" so that its kept targets name "other"
// must not borrow other's kubeconfig after `terraform import`: the
// refresh cannot check drift, and the destroy fails naming the target,
// deleting nothing; the apply of the configuration then takes over, and
// its destroy deletes what was deployed. Before, the refresh and the
// destroy took other's kubeconfig.
func TestAccInstallation_importedTargetBorrowsNoOtherKubeconfig(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	kubeconfig, err := os.ReadFile(localcluster.KubeconfigPath(t))
	if err != nil {
		t.Fatal(err)
	}
	other, err := target.WithNamespace(string(kubeconfig), localcluster.Namespace(t))
	if err != nil {
		t.Fatal(err)
	}
	otherPath := filepath.Join(t.TempDir(), "other.kubeconfig")
	if err := os.WriteFile(otherPath, []byte(other), 0o600); err != nil {
		t.Fatal(err)
	}
	e.targetHCL = fmt.Sprintf(`
provider "landscaper" {
  target_kubeconfigs = { cluster = file(%q), other = file(%q) }
}
resource "landscaper_target" "cluster" {
  name                     = "cluster"
  kubeconfig_from_provider = true
}
`, localcluster.KubeconfigPath(t), otherPath)
	const res = "borrow"
	addr := "landscaper_installation." + res
	w := newCLIWorkspace(t, e.itemsInstallation(res, "a"))
	w.mustRun("apply", "-auto-approve", "-input=false")

	e.renameKeptTargets(res, "cluster", "other")
	w.mustRun("state", "rm", addr)
	w.mustRun("import", "-input=false", addr, e.namespace+"/"+res)
	out, err := w.run("destroy", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("the destroy after importing a record whose targets name another cluster's kubeconfig succeeded:\n%s", out)
	}
	if !strings.Contains(out, "other") {
		t.Errorf("the destroy's error does not name the target it refused:\n%s", out)
	}
	if err := e.configMapData("a", map[string]string{"item": "a"})(nil); err != nil {
		t.Fatalf("the refused destroy deleted something: %v", err)
	}
	// the configuration's apply re-derives the targets; its destroy works
	w.mustRun("apply", "-auto-approve", "-input=false")
	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("a")(nil); err != nil {
		t.Fatal(err)
	}
}
