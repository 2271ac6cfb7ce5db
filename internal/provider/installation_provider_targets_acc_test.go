package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// providerTargetsInstallation is itemsInstallation with its target import
// given by name from the provider block (provider_targets) instead of a
// landscaper_target: the configuration holds no sensitive value.
func (e *accEnv) providerTargetsInstallation(resourceName string, names ...string) string {
	c := *e
	c.targetHCL = providerKubeconfigHCL(e.t)
	config := c.itemsInstallation(resourceName, names...)
	const targets = "    targets = { cluster = landscaper_target.cluster.target }\n"
	if !strings.Contains(config, targets) {
		e.t.Fatalf("itemsInstallation changed; its target import is not %q", targets)
	}
	config = strings.Replace(config, targets, "", 1)
	return strings.Replace(config, "  imports   = {", "  provider_targets = { cluster = \"cluster\" }\n  imports   = {", 1)
}

// stateJobID is the job_id of addr in the workspace's state.
func (w *cliWorkspace) stateJobID(addr string) string {
	w.t.Helper()
	m := regexp.MustCompile(`(?m)^\s*job_id\s*=\s*"([^"]+)"`).FindStringSubmatch(w.mustRun("state", "show", "-no-color", addr))
	if m == nil {
		w.t.Fatalf("state of %s has no job_id", addr)
	}
	return m[1]
}

// Issue 25 (3): with provider_targets the configuration holds no
// sensitive value, so the plan right after `terraform import`, or of an
// import block, is empty: no marks-only update as with a landscaper_target
// (TestAccInstallation_importFillsState). A destroy straight after the
// import removes everything.
func TestAccInstallation_importProviderTargets(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	const res = "bynames"
	addr := "landscaper_installation." + res
	config := e.providerTargetsInstallation(res, "a", "b")
	w := newCLIWorkspace(t, config)
	w.mustRun("apply", "-auto-approve", "-input=false")
	job := w.stateJobID(addr)
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after the apply is not empty (%v):\n%s", err, out)
	}

	w.mustRun("state", "rm", addr)
	w.mustRun("import", "-input=false", addr, e.namespace+"/"+res)
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after terraform import is not empty (%v):\n%s", err, out)
	}

	w.mustRun("state", "rm", addr)
	w.write(config + fmt.Sprintf("\nimport {\n  to = %s\n  id = \"%s/%s\"\n}\n", addr, e.namespace, res))
	if out := w.mustRun("plan", "-input=false"); !strings.Contains(out, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Fatalf("the plan of the import block does more than import:\n%s", out)
	}
	w.mustRun("apply", "-auto-approve", "-input=false")
	if got := w.stateJobID(addr); got != job {
		t.Errorf("applying the import ran a job: job_id %s, was %s", got, job)
	}
	w.write(config)
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after the import block's apply is not empty (%v):\n%s", err, out)
	}

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

// Issue 25 (4a): an installation that takes its target from the provider
// block (provider_targets) is taken over in another workspace with
// `terraform query -generate-config-out`: the workspace gives the
// provider block the same target_kubeconfigs entry (the one thing no
// inventory can give: the credentials), the generated configuration is
// used as written, and its plan only imports. The apply runs no job; the
// next plan is empty; destroy removes everything.
func TestAccInstallationList_takeOver(t *testing.T) {
	requireAcc(t)
	if ok, why := queryCLI(); !ok {
		t.Skip(why)
	}
	e := newAccEnv(t)
	const res = "takenover"
	w := newCLIWorkspace(t, e.providerTargetsInstallation(res, "a", "b"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	job := w.stateJobID("landscaper_installation." + res)

	other := newCLIWorkspace(t, providerKubeconfigHCL(t))
	out, generated := other.query(fmt.Sprintf(`
list "landscaper_installation" "found" {
  provider = landscaper
  config {
    namespace = %q
  }
}
`, e.namespace))
	t.Logf("query:\n%s\ngenerated configuration:\n%s", out, generated)
	if !regexp.MustCompile(`(?m)^\s*provider_targets\s*=\s*\{\s*cluster\s*=\s*"cluster"\s*\}`).MatchString(generated) &&
		!regexp.MustCompile(`(?m)^\s*provider_targets\s*=\s*\{\n\s*cluster\s*=\s*"cluster"\n\s*\}`).MatchString(generated) {
		t.Fatalf("generated configuration does not name the provider's kubeconfig in provider_targets:\n%s", generated)
	}
	if strings.Contains(generated, "provider_target_references") {
		t.Errorf("generated configuration sets the computed provider_target_references:\n%s", generated)
	}
	plan := other.mustRun("plan", "-input=false")
	t.Logf("plan of the generated configuration:\n%s", plan)
	if !strings.Contains(plan, "Plan: 1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Fatalf("the plan of the generated configuration does more than import:\n%s", plan)
	}
	other.mustRun("apply", "-auto-approve", "-input=false")
	if got := other.stateJobID("landscaper_installation.found_0"); got != job {
		t.Errorf("the take-over ran a job: job_id %s, was %s", got, job)
	}
	if out, err := other.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after the import's apply is not empty (%v):\n%s", err, out)
	}
	if err := os.Remove(filepath.Join(other.dir, "find.tfquery.hcl")); err != nil {
		t.Fatal(err)
	}
	other.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("a", "b")(nil); err != nil {
		t.Fatal(err)
	}
	if p := e.inventoryParent(res); p != nil {
		t.Fatalf("destroy left the inventory %s/%s", p.Namespace, p.Name)
	}
}
