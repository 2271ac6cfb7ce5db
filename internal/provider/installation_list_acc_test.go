package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/tfcli"
)

// queryCLI says whether the selected CLI has list resources and
// `terraform query` (Terraform >= 1.14); the reason when it does not.
func queryCLI() (bool, string) {
	switch tfcli.Name() {
	case tfcli.Terraform:
		return false, "Terraform 1.5 has no list resources (terraform query needs Terraform >= 1.14)"
	case tfcli.OpenTofu:
		return false, "OpenTofu has no list resources or query command yet (terraform query needs Terraform >= 1.14)"
	}
	return true, ""
}

// query writes the query file and runs `terraform query
// -generate-config-out=generated.tf`; it returns the CLI's output and the
// generated configuration.
func (w *cliWorkspace) query(queryHCL string) (out, generated string) {
	w.t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, "find.tfquery.hcl"), []byte(queryHCL), 0o600); err != nil {
		w.t.Fatal(err)
	}
	out = w.mustRun("query", "-generate-config-out=generated.tf")
	b, err := os.ReadFile(filepath.Join(w.dir, "generated.tf"))
	if err != nil {
		w.t.Fatalf("query wrote no generated.tf: %v\n%s", err, out)
	}
	return out, string(b)
}

// Issue 25 (4a): after a lost state, `terraform query` in another
// workspace finds the installation by its inventory in the provider
// block's target_kubeconfigs; the configuration it generates, with the
// target imports Terraform leaves null (sensitive) set, plans the import,
// the new workspace's target and the installation's update to it; the
// next plan is empty and destroy removes everything. An installation of
// another namespace is not listed. (provider_targets takes an installation
// over without a change: TestAccInstallationList_takeOver.)
func TestAccInstallationList_fromInventory(t *testing.T) {
	requireAcc(t)
	if ok, why := queryCLI(); !ok {
		t.Skip(why)
	}
	e := newAccEnv(t).fromProviderEnv()
	const res = "listed"
	w := newCLIWorkspace(t, e.itemsInstallation(res, "a", "b"))
	w.mustRun("apply", "-auto-approve", "-input=false")

	other := newCLIWorkspace(t, e.targetHCL)
	out, generated := other.query(fmt.Sprintf(`
list "landscaper_installation" "found" {
  provider = landscaper
  config {
    namespace = %q
  }
}
`, e.namespace))
	t.Logf("query:\n%s\ngenerated configuration:\n%s", out, generated)
	for _, want := range []string{`resource "landscaper_installation"`, "identity", `name      = "` + res + `"`, "blueprint"} {
		if !strings.Contains(generated, want) {
			t.Errorf("generated configuration lacks %q", want)
		}
	}
	if n := strings.Count(generated, `resource "landscaper_installation"`); n != 1 {
		t.Errorf("query found %d installations in namespace %s, want 1", n, e.namespace)
	}
	// Terraform writes sensitive attributes as null: the target imports,
	// which the user sets to this workspace's landscaper_target. Its
	// kubeconfig reference is this workspace's own, so the installation's
	// plan updates that reference and nothing else.
	// (Terraform aligns the "=" of an object's attributes.)
	targetsLine := regexp.MustCompile(`(?m)^(\s*targets\s*=) null # sensitive$`)
	if !targetsLine.MatchString(generated) {
		t.Fatalf("generated configuration does not leave the sensitive target imports to the user:\n%s", generated)
	}
	filled := targetsLine.ReplaceAllString(generated, "${1} { cluster = landscaper_target.cluster.target }")
	if err := os.WriteFile(filepath.Join(other.dir, "generated.tf"), []byte(filled), 0o600); err != nil {
		t.Fatal(err)
	}
	plan := other.mustRun("plan", "-input=false")
	if !strings.Contains(plan, "1 to import, 1 to add, 1 to change, 0 to destroy") || strings.Contains(plan, "must be replaced") {
		t.Fatalf("the plan of the generated configuration does more than import it and set its target:\n%s", plan)
	}
	other.mustRun("apply", "-auto-approve", "-input=false")
	if out, err := other.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after the import's apply is not empty (%v):\n%s", err, out)
	}
	other.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("a", "b")(nil); err != nil {
		t.Fatal(err)
	}
}

// Issue 25 (4b): `terraform query` with source "landscaper" finds the root
// Installations a running Landscaper (the replayed recording
// harbor-installed) keeps in the host cluster, leaves out with a warning
// the one whose import would fail (canary's mock item), and the
// configuration it generates plans the imports alone, writing nothing. A
// labels filter lists only the Installations that carry them.
func TestAccInstallationList_fromLandscaper(t *testing.T) {
	requireAcc(t)
	if ok, why := queryCLI(); !ok {
		t.Skip(why)
	}
	e := newRecordedEnv(t, "harbor-installed")
	before := e.deployed()
	w := newCLIWorkspace(t, e.providerHCL())
	out, generated := w.query(fmt.Sprintf(`
list "landscaper_installation" "landscaper" {
  provider         = landscaper
  include_resource = true
  config {
    source    = "landscaper"
    namespace = %q
  }
}
`, e.namespace))
	t.Logf("query:\n%s\ngenerated configuration:\n%s", out, generated)
	if n := strings.Count(generated, `resource "landscaper_installation"`); n != len(migratedRoots) {
		t.Errorf("query generated %d installations, want the %d roots %v", n, len(migratedRoots), migratedRoots)
	}
	if !wrapped("Installation Not Listed").MatchString(out) || !strings.Contains(out, "canary") {
		t.Errorf("query does not say canary was left out:\n%s", out)
	}
	for _, secret := range []string{"kubeconfig", "client-key-data", "token", "password"} {
		if strings.Contains(generated, secret) {
			t.Errorf("generated configuration contains %q", secret)
		}
	}
	plan := w.mustRun("plan", "-input=false")
	if !strings.Contains(plan, fmt.Sprintf("%d to import, 0 to add, 0 to change, 0 to destroy", len(migratedRoots))) {
		t.Fatalf("the plan of the generated configuration does more than import:\n%s", plan)
	}
	e.assertUnchanged("query and the plan of its configuration", before)

	// The labels filter: orders alone carries harbor.example/team.
	if err := os.WriteFile(filepath.Join(w.dir, "find.tfquery.hcl"), []byte(`
list "landscaper_installation" "team" {
  provider = landscaper
  config {
    source = "landscaper"
    labels = { "harbor.example/team" = "orders" }
  }
}
`), 0o600); err != nil {
		t.Fatal(err)
	}
	out = w.mustRun("query")
	if !strings.Contains(out, "name=orders,") || strings.Count(out, "list.landscaper_installation.team ") != 1 {
		t.Errorf("the query by label does not list orders alone:\n%s", out)
	}
}
