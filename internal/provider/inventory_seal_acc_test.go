package provider

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/tfcli"
)

// inventoryBytes are the data of the installation's inventory Secrets
// (its parents and their parts, in whatever namespace its targets' kubeconfigs
// name), as stored and uncompressed: what a reader of those Secrets gets.
func (e *accEnv) inventoryBytes(resourceName string) []byte {
	e.t.Helper()
	list, err := e.kube.CoreV1().Secrets("").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	parents := map[string]bool{}
	for _, s := range list.Items {
		if s.Type == "landscaper.gardener.cloud/inventory" && s.Annotations[inventory.InstallationAnnotation] == e.namespace+"."+resourceName {
			parents[s.Namespace+"/"+s.Name] = true
		}
	}
	if len(parents) == 0 {
		e.t.Fatal("no inventory Secret of the installation: the test sees nothing")
	}
	var all []byte
	for _, s := range list.Items {
		if !parents[s.Namespace+"/"+s.Name] && !parents[s.Namespace+"/"+s.Labels[inventory.PartOfLabel]] {
			continue
		}
		for _, v := range s.Data {
			all = append(all, v...)
			all = append(all, base64.StdEncoding.EncodeToString(v)...)
			if raw, err := compress.Gunzip(v, 256<<20); err == nil {
				all = append(all, raw...)
			}
		}
	}
	return all
}

// Issue 32: a Secret import rendered into a deploy item's configuration
// is not kept in clear in the inventory Secret of the target cluster —
// neither the value nor its base64 nor its JSON form — while the plain
// item's configuration stays readable. landscaper_reconcile (Terraform
// >= 1.14) still applies the sealed item again, and `terraform import`
// into a fresh state followed by destroy removes what it deployed.
func TestAccInventory_sealsConfigHoldingASecret(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	password := fmt.Sprintf("cnry%x\"<", b) // a quote and a "<": its JSON form differs
	creds, _ := json.Marshal(map[string]any{"password": password})
	if _, err := e.kube.CoreV1().Secrets(e.namespace).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "seal-creds", Namespace: e.namespace},
		StringData: map[string]string{"creds": string(creds)},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(password)
	forms := []string{password, base64.StdEncoding.EncodeToString([]byte(password)), string(quoted[1 : len(quoted)-1]),
		fmt.Sprintf("cnry%x", b)}

	actions := tfcli.Name() == tfcli.TerraformCurrent
	const res = "sealed"
	addr := "landscaper_installation." + res
	config := fmt.Sprintf(`
provider "landscaper" {
  kubernetes         = { config_path = %[1]q }
  target_kubeconfigs = { cluster = file(%[1]q) }
}
`, localcluster.KubeconfigPath(t)) + e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" %[3]q {
  name      = %[3]q
  namespace = %[1]q
  blueprint = { path = %[2]q }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[1]q }
    secrets = { creds = { name = "seal-creds", namespace = %[1]q, key = "creds" } }
  }
}
`, e.namespace, blueprintDir(t, "inventory-seal"), res)
	if actions {
		config += fmt.Sprintf(`
action "landscaper_reconcile" "now" {
  config {
    installation  = %s.id
    targets       = [landscaper_target.cluster.target]
    reconcile_key = %s.reconcile_key
  }
}
`, addr, addr)
	}
	w := newCLIWorkspace(t, config)
	if actions {
		w.mustRun("init", "-input=false", "-plugin-dir="+providerMirror(t))
	}
	defer w.run("destroy", "-auto-approve", "-input=false") //nolint:errcheck // best-effort cleanup; the checks below decide
	w.mustRun("apply", "-auto-approve", "-input=false")
	secretPresent := e.configMapData("seal-secret", map[string]string{"password": password,
		"b64": base64.StdEncoding.EncodeToString([]byte(password))})
	if err := secretPresent(nil); err != nil {
		t.Fatalf("the sealed item was not deployed: %v", err)
	}
	assertSealed := func(when string) {
		t.Helper()
		all := e.inventoryBytes(res)
		for _, f := range forms {
			if i := bytes.Index(all, []byte(f)); i >= 0 {
				t.Errorf("%s: the inventory holds the Secret import's form %q: …%s…", when, f, all[max(0, i-200):min(len(all), i+60)])
			}
		}
		if !bytes.Contains(all, []byte(`"sealedConfig"`)) || !bytes.Contains(all, []byte("not-secret")) {
			t.Errorf("%s: the inventory has no sealed configuration, or lost the plain one", when)
		}
	}
	assertSealed("after apply")

	if actions {
		e.deleteConfigMap("seal-secret")
		out := w.mustRun("apply", "-input=false", "-auto-approve", "-invoke=action.landscaper_reconcile.now")
		if err := secretPresent(nil); err != nil {
			t.Fatalf("landscaper_reconcile did not apply the sealed item again: %v\n%s", err, out)
		}
		if strings.Contains(out, password) {
			t.Errorf("apply -invoke shows the secret:\n%s", out)
		}
		assertSealed("after landscaper_reconcile")
	} else {
		t.Logf("%s has no actions: landscaper_reconcile of a sealed item is tested with terraform-current", tfcli.Name())
	}

	// A fresh state: the import finds the installation through the
	// provider's target_kubeconfigs, without a key, so without the sealed
	// configuration; the destroy deletes both items by what the
	// inventory records of them.
	w.mustRun("state", "rm", addr)
	w.mustRun("import", "-input=false", addr, e.namespace+"/"+res)
	if show := w.mustRun("state", "show", addr); strings.Contains(show, password) {
		t.Errorf("the imported state shows the secret:\n%s", show)
	}
	w.mustRun("plan", "-input=false") // the refresh's drift check passes over the item without a configuration
	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("seal-secret", "seal-plain")(nil); err != nil {
		t.Fatalf("destroy after import: %v", err)
	}
	if p := e.inventoryParent(res); p != nil {
		t.Fatalf("destroy after import left the inventory %s/%s", p.Namespace, p.Name)
	}
}
