package provider

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// leakForms are what a stored copy or fingerprint of v would show: v, its
// base64, and its SHA-256 in hex, whole and as the 128 bits the
// provider's hashes keep.
func leakForms(v string) []string {
	sum := sha256.Sum256([]byte(v))
	h := hex.EncodeToString(sum[:])
	return []string{v, base64.StdEncoding.EncodeToString([]byte(v)), h, h[:32]}
}

// assertInventoryClean checks installation app's inventory Secrets (the
// parent's decoded record and every part) for the forms.
func (e *accEnv) assertInventoryClean(forms ...string) {
	e.t.Helper()
	parent := e.inventoryParent("app")
	if parent == nil {
		e.t.Fatal("no inventory parent for installation app")
	}
	assertAbsent(e.t, "the inventory record", e.inventoryRecord("app"), forms...)
	for k, v := range parent.Data {
		assertAbsent(e.t, "the inventory parent's "+k, v, forms...)
	}
	parts, err := e.kube.CoreV1().Secrets(parent.Namespace).List(context.Background(), metav1.ListOptions{LabelSelector: inventory.PartOfLabel})
	if err != nil {
		e.t.Fatal(err)
	}
	for _, p := range parts.Items {
		for k, v := range p.Data {
			assertAbsent(e.t, "inventory part "+p.Name+" "+k, v, forms...)
		}
	}
}

// Issue 32 (d): nothing stored is computed from a write-only value. A
// changed data_wo alone plans no change (Terraform's write-only
// semantics); data_wo_version deploys it. Neither value, nor its base64,
// nor its SHA-256 is in the state file, a private state or the inventory
// — so a short value cannot be tested against them offline.
func TestAccInstallation_writeOnlyInNoHash(t *testing.T) {
	requireAcc(t)
	skipWithoutWriteOnly(t)
	e := newAccEnv(t)
	const one, two = "value-one", "value-two"
	forms := append(leakForms(one), leakForms(two)...)

	w := newCLIWorkspace(t, e.writeOnlyConfig(1))
	w.env = append(w.env, "TF_VAR_token="+one)
	w.mustRun("init", "-input=false", "-plugin-dir="+providerMirror(t))
	w.mustRun("apply", "-input=false", "-auto-approve")
	if err := e.configMapData("write-only", map[string]string{"token": one})(nil); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	job1 := currentJob(t, w)

	// Only the value changes: nothing to do, and nothing done.
	w.env = append(w.env, "TF_VAR_token="+two)
	if out, err := w.run("plan", "-input=false", "-detailed-exitcode"); err != nil {
		t.Fatalf("a changed write-only value alone planned a change (%v):\n%s", err, out)
	}
	if err := e.configMapData("write-only", map[string]string{"token": one})(nil); err != nil {
		t.Fatal(err)
	}

	// The version deploys the value.
	w.write(e.writeOnlyConfig(2))
	w.mustRun("apply", "-input=false", "-auto-approve")
	if err := e.configMapData("write-only", map[string]string{"token": two})(nil); err != nil {
		t.Fatal(err)
	}
	if job2 := currentJob(t, w); job2 == job1 {
		t.Errorf("data_wo_version ran no job (job_id %s)", job1)
	}
	assertAbsent(t, "the state file after the first apply", before, leakForms(one)...)
	assertStateClean(t, w, forms...)
	e.assertInventoryClean(forms...)
	if out, err := w.run("plan", "-input=false", "-detailed-exitcode"); err != nil {
		t.Fatalf("plan after the version's apply is not empty (%v):\n%s", err, out)
	}
	w.mustRun("destroy", "-input=false", "-auto-approve")
}
