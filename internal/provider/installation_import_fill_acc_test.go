package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/tfcli"
)

// providerKubeconfigHCL is a provider block whose target_kubeconfigs has
// the local cluster as "cluster": the cluster an import searches.
func providerKubeconfigHCL(t *testing.T) string {
	return fmt.Sprintf(`
provider "landscaper" {
  target_kubeconfigs = { cluster = file(%q) }
}
`, localcluster.KubeconfigPath(t))
}

// fromProviderEnv is e with its target taking the kubeconfig from the
// provider block.
func (e *accEnv) fromProviderEnv() *accEnv {
	c := *e
	c.targetHCL = providerKubeconfigHCL(e.t) + `
resource "landscaper_target" "cluster" {
  name                     = "cluster"
  kubeconfig_from_provider = true
}
`
	return &c
}

// inventoryRecord is the decoded record of the installation's parent.
func (e *accEnv) inventoryRecord(resourceName string) []byte {
	e.t.Helper()
	p := e.inventoryParent(resourceName)
	if p == nil {
		e.t.Fatalf("no inventory parent for installation %s", resourceName)
	}
	b, err := compress.Gunzip(p.Data["record"], 64<<20)
	if err != nil {
		e.t.Fatal(err)
	}
	return b
}

// applyMarksOnly plans and applies after an import of addr, and checks
// that the plan is Terraform's update of sensitivity marks alone: the
// configuration takes imports.targets from landscaper_target's sensitive
// target, so the planned value carries the mark at
// imports.targets["cluster"] that only the configuration knows, while the
// imported state has the schema's marks alone (Terraform and OpenTofu
// compare the marks of prior and planned value path by path and plan an
// update when they differ, whatever the provider returns). The plan shows
// "update in-place" with no attribute changing; its apply calls no
// provider, so no job runs (job_id stays), and writes the mark into the
// state's sensitive_attributes. The next plan is empty.
// provider_targets avoids it (TestAccInstallation_importProviderTargets).
// OpenTofu gives an imported state the configuration's marks
// (opentofu/opentofu#1231): there the plan is empty, or the import alone.
func (w *cliWorkspace) applyMarksOnly(addr string) {
	w.t.Helper()
	marksOnly := tfcli.Name() != tfcli.OpenTofu
	out := w.mustRun("plan", "-input=false", "-out=import.tfplan")
	w.t.Logf("the plan after the import of %s:\n%s", addr, out)
	switch {
	case marksOnly && (!strings.Contains(out, addr+" will be updated in-place") ||
		!regexp.MustCompile(`Plan: (1 to import, )?0 to add, 1 to change, 0 to destroy`).MatchString(out)):
		w.t.Fatalf("the plan after the import of %s is not one update in place:\n%s", addr, out)
	case !marksOnly && !strings.Contains(out, "No changes.") && !strings.Contains(out, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy"):
		w.t.Fatalf("the plan after the import of %s is not empty:\n%s", addr, out)
	}
	var plan struct {
		ResourceChanges []struct {
			Address string `json:"address"`
			Change  struct {
				Actions     []string        `json:"actions"`
				Before      json.RawMessage `json:"before"`
				After       json.RawMessage `json:"after"`
				AfterUnkown json.RawMessage `json:"after_unknown"`
			} `json:"change"`
		} `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(w.mustRun("show", "-json", "import.tfplan")), &plan); err != nil {
		w.t.Fatal(err)
	}
	job := ""
	for _, rc := range plan.ResourceChanges {
		if rc.Address != addr {
			continue
		}
		var prior struct {
			JobID string `json:"job_id"`
		}
		_ = json.Unmarshal(rc.Change.Before, &prior)
		job = prior.JobID
		if a, want := strings.Join(rc.Change.Actions, ","), map[bool]string{true: "update", false: "no-op"}[marksOnly]; a != want {
			w.t.Fatalf("after the import, %s is planned %s, not %s", addr, a, want)
		}
		var before, after any
		_ = json.Unmarshal(rc.Change.Before, &before)
		_ = json.Unmarshal(rc.Change.After, &after)
		if !reflect.DeepEqual(before, after) || strings.Contains(string(rc.Change.AfterUnkown), "true") {
			w.t.Fatalf("after the import, the plan changes values of %s:\nbefore %s\nafter  %s\nunknown %s",
				addr, rc.Change.Before, rc.Change.After, rc.Change.AfterUnkown)
		}
	}
	if job == "" {
		w.t.Fatalf("the plan after the import has no job_id of %s", addr)
	}
	configMark := regexp.MustCompile(`"targets"\},\{"type":"index","value":\{"value":"cluster"`)
	if marksOnly && configMark.MatchString(w.sensitiveAttributes(addr)) {
		w.t.Fatalf("the imported state of %s already has the configuration's mark", addr)
	}
	w.mustRun("apply", "-input=false", "import.tfplan")
	if after := w.mustRun("state", "show", addr); !strings.Contains(after, `"`+job+`"`) {
		w.t.Errorf("applying the import's plan ran a job: job_id was %s, now:\n%s", job, after)
	}
	if got := w.sensitiveAttributes(addr); !configMark.MatchString(got) {
		w.t.Errorf("the apply did not record the configuration's mark imports.targets[\"cluster\"]: sensitive_attributes %s", got)
	}
}

// sensitiveAttributes is the sensitive_attributes of addr in the
// workspace's state file ("" when addr is not in it).
func (w *cliWorkspace) sensitiveAttributes(addr string) string {
	w.t.Helper()
	b, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if os.IsNotExist(err) {
		return ""
	} else if err != nil {
		w.t.Fatal(err)
	}
	var state struct {
		Resources []struct {
			Type, Name string
			Instances  []struct {
				SensitiveAttributes json.RawMessage `json:"sensitive_attributes"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(b, &state); err != nil {
		w.t.Fatal(err)
	}
	for _, r := range state.Resources {
		if r.Type+"."+r.Name == addr && len(r.Instances) == 1 {
			var compact bytes.Buffer
			if err := json.Compact(&compact, r.Instances[0].SensitiveAttributes); err != nil {
				w.t.Fatal(err)
			}
			return compact.String()
		}
	}
	return ""
}

// Issue 25 (3): an import fills the state from the installation's
// inventory, found through the provider block's target_kubeconfigs. After
// `terraform import`, and after an import block, the plan of the same
// configuration is empty; the inventory keeps no credential; a destroy
// straight after an import removes everything recorded, the inventory
// last. Before, an import stored only the ID: the plan proposed a job and
// a destroy failed.
func TestAccInstallation_importFillsState(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t).fromProviderEnv()
	const res = "imported"
	addr := "landscaper_installation." + res
	config := e.itemsInstallation(res, "a", "b")
	w := newCLIWorkspace(t, config)
	w.mustRun("apply", "-auto-approve", "-input=false")
	kubeconfig, err := os.ReadFile(localcluster.KubeconfigPath(t))
	if err != nil {
		t.Fatal(err)
	}
	record := e.inventoryRecord(res)
	assertNoCredential(t, "the inventory record", record, credentialNeedles(t, kubeconfig))
	if !strings.Contains(string(record), `"kept"`) {
		t.Fatalf("the inventory keeps nothing for an import:\n%.400s", record)
	}

	// terraform import, by ID.
	w.mustRun("state", "rm", addr)
	if out := w.mustRun("import", "-input=false", addr, e.namespace+"/"+res); strings.Contains(out, "Warning") {
		t.Errorf("import warns:\n%s", out)
	}
	w.applyMarksOnly(addr)

	// An import block: the plan imports and changes nothing.
	w.mustRun("state", "rm", addr)
	w.write(config + fmt.Sprintf(`
import {
  to = %s
  id = "%s/%s"
}
`, addr, e.namespace, res))
	w.applyMarksOnly(addr)
	w.write(config)
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after the import block's apply is not empty (%v):\n%s", err, out)
	}

	// Imported, then destroyed straight away.
	w.mustRun("state", "rm", addr)
	w.mustRun("import", "-input=false", addr, e.namespace+"/"+res)
	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("a", "b")(nil); err != nil {
		t.Fatal(err)
	}
	if p := e.inventoryParent(res); p != nil {
		t.Fatalf("destroy after import left the inventory %s/%s", p.Namespace, p.Name)
	}
}

// identityCLI says whether the selected CLI imports by resource identity
// (Terraform >= 1.12, OpenTofu >= 1.12); the reason when it does not.
func identityCLI() (bool, string) {
	if tfcli.Name() == tfcli.Terraform {
		return false, "Terraform 1.5 has no resource identity (import { identity = … } needs Terraform >= 1.12 or OpenTofu >= 1.12)"
	}
	return true, ""
}

// Issue 25 (2, 3): `import { to = …, identity = { namespace, name } }`
// imports an installation, and `identity = { name }` a target. The
// installation's plan is an import alone; the target's import shows its
// update (a target's configuration is nowhere to be read back).
func TestAccInstallation_importByIdentity(t *testing.T) {
	requireAcc(t)
	if ok, why := identityCLI(); !ok {
		t.Skip(why)
	}
	e := newAccEnv(t).fromProviderEnv()
	const res = "byidentity"
	addr := "landscaper_installation." + res
	config := e.itemsInstallation(res, "a")
	w := newCLIWorkspace(t, config)
	w.mustRun("apply", "-auto-approve", "-input=false")
	show := w.mustRun("show", "-json")
	if !strings.Contains(show, `"identity":{"name":"`+res+`","namespace":"`+e.namespace+`"}`) &&
		!strings.Contains(show, `"identity":{"namespace":"`+e.namespace+`","name":"`+res+`"}`) {
		t.Errorf("show -json records no identity {namespace, name} of the installation:\n%.2000s", show)
	}

	w.mustRun("state", "rm", addr)
	w.write(config + fmt.Sprintf(`
import {
  to       = %s
  identity = { namespace = %q, name = %q }
}
`, addr, e.namespace, res))
	w.applyMarksOnly(addr)

	// The target by identity: imported, and updated from the configuration
	// (its kubeconfig reference is nowhere to be read back).
	w.mustRun("state", "rm", "landscaper_target.cluster")
	w.write(config + `
import {
  to       = landscaper_target.cluster
  identity = { name = "cluster" }
}
`)
	out := w.mustRun("plan", "-input=false")
	if !regexp.MustCompile(`Plan: 1 to import, 0 to add, [12] to change, 0 to destroy`).MatchString(out) ||
		!strings.Contains(out, "landscaper_target.cluster will be updated in-place") {
		t.Fatalf("the plan of the target's identity import is not: imported and updated:\n%s", out)
	}
	w.mustRun("apply", "-auto-approve", "-input=false")
	w.write(config)
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after the imports' apply is not empty (%v):\n%s", err, out)
	}
	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("a")(nil); err != nil {
		t.Fatal(err)
	}
}

// Issue 25 (3): a target with a kubeconfig of its own is never copied into
// the inventory. Its import still fills the state through the provider
// block's kubeconfig of the same cluster, without the target imports:
// the import warns, the plan sets them (an update), and a destroy straight
// after the import removes everything through the cluster it was found in.
func TestAccInstallation_importWithholdsCredentials(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	e.targetHCL = providerKubeconfigHCL(t) + e.targetHCL // inline kubeconfig, and the provider's
	const res = "withheld"
	addr := "landscaper_installation." + res
	w := newCLIWorkspace(t, e.itemsInstallation(res, "a"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	kubeconfig, err := os.ReadFile(localcluster.KubeconfigPath(t))
	if err != nil {
		t.Fatal(err)
	}
	assertNoCredential(t, "the inventory record", e.inventoryRecord(res), credentialNeedles(t, kubeconfig))

	w.mustRun("state", "rm", addr)
	out := w.mustRun("import", "-input=false", addr, e.namespace+"/"+res)
	if !wrapped("Attributes Holding Credentials Not Imported").MatchString(out) || !strings.Contains(out, "imports.targets") {
		t.Errorf("import does not say the target imports were withheld:\n%s", out)
	}
	if out := w.mustRun("plan", "-input=false"); !strings.Contains(out, "0 to add, 1 to change, 0 to destroy") {
		t.Errorf("the plan after the import does not set the target imports:\n%s", out)
	}
	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("a")(nil); err != nil {
		t.Fatal(err)
	}
	if p := e.inventoryParent(res); p != nil {
		t.Fatalf("destroy after import left the inventory %s/%s", p.Namespace, p.Name)
	}
}
