package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/tfcli"
)

// skipWithoutWriteOnly skips on the CLIs without write-only attributes.
func skipWithoutWriteOnly(t *testing.T) {
	t.Helper()
	if tfcli.Name() == tfcli.Terraform {
		t.Skip("Terraform 1.5 has no write-only attributes (Terraform ≥ 1.11, OpenTofu ≥ 1.11): imports.data_wo is not tested there")
	}
}

// writeOnlyConfig is an installation that renders the write-only import
// token, from an ephemeral variable, into a ConfigMap. (Masked exports:
// TestMaskWriteOnly.)
func (e *accEnv) writeOnlyConfig(version int) string {
	items := manifestItem("config", "",
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: write-only, namespace: "+e.namespace+"}, data: {token: \"{{ .imports.token }}\"}}")
	bp := clusterBlueprint("- name: token\n  schema: {type: string}", items, "")
	return e.targetHCL + fmt.Sprintf(`
variable "token" {
  type      = string
  sensitive = true
  ephemeral = true
}

resource "landscaper_installation" "app" {
  name      = "app"
  namespace = %q
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports = {
    targets         = { cluster = landscaper_target.cluster.target }
    data_wo         = { token = var.token }
    data_wo_version = %d
  }
}

output "job" { value = landscaper_installation.app.job_id }
`, e.namespace, bp, version)
}

// assertAbsent fails when what contains any of the values.
func assertAbsent(t *testing.T, where string, what []byte, values ...string) {
	t.Helper()
	for _, v := range values {
		if strings.Contains(string(what), v) {
			t.Errorf("%s holds the write-only value %q", where, v)
		}
	}
}

// assertStateClean checks the state file, `show -json` and every decoded
// private state for the values.
func assertStateClean(t *testing.T, w *cliWorkspace, values ...string) {
	t.Helper()
	state, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	assertAbsent(t, "the state file", state, values...)
	assertAbsent(t, "show -json of the state", []byte(w.mustRun("show", "-json")), values...)
	for name, b := range privateStates(t, state) {
		assertAbsent(t, "private state of "+name, b, values...)
	}
}

// currentJob is the output "job" of the state.
func currentJob(t *testing.T, w *cliWorkspace) string {
	t.Helper()
	var job string
	if err := json.Unmarshal([]byte(w.mustRun("output", "-json", "job")), &job); err != nil || job == "" {
		t.Fatalf("output job: %q, %v", job, err)
	}
	return job
}

// A write-only import renders and deploys, and is in no plan file, state,
// `show -json` or decoded private state; the plan
// after the apply is empty, and a changed data_wo_version runs a job with
// the values given then.
func TestAccInstallation_writeOnlyImports(t *testing.T) {
	requireAcc(t)
	skipWithoutWriteOnly(t)
	e := newAccEnv(t)
	const first, second = "wo-first-9f2c41d7", "wo-second-3b8e0a65"

	w := newCLIWorkspace(t, e.writeOnlyConfig(1))
	w.env = append(w.env, "TF_VAR_token="+first)
	w.mustRun("init", "-input=false", "-plugin-dir="+providerMirror(t))
	w.mustRun("plan", "-input=false", "-out=tfplan")
	for name, b := range zipEntries(t, filepath.Join(w.dir, "tfplan")) {
		assertAbsent(t, "plan file entry "+name, b, first)
	}
	assertAbsent(t, "show -json of the plan", []byte(w.mustRun("show", "-json", "tfplan")), first)
	w.mustRun("apply", "-input=false", "tfplan")
	if err := e.configMapData("write-only", map[string]string{"token": first})(nil); err != nil {
		t.Fatal(err)
	}
	assertStateClean(t, w, first)
	job1 := currentJob(t, w)

	// Refresh does not take the masked configuration for drift.
	if out, err := w.run("plan", "-input=false", "-detailed-exitcode"); err != nil {
		t.Fatalf("plan after apply is not empty (%v):\n%s", err, out)
	}

	// A new version with a new value: a job deploys the new value.
	w.write(e.writeOnlyConfig(2))
	w.env = append(w.env, "TF_VAR_token="+second)
	out := w.mustRun("plan", "-input=false", "-out=tfplan")
	t.Logf("plan with a new write-only value:\n%s", out)
	assertAbsent(t, "the plan's output", []byte(out), first, second)
	for name, b := range zipEntries(t, filepath.Join(w.dir, "tfplan")) {
		assertAbsent(t, "plan file entry "+name, b, first, second)
	}
	w.mustRun("apply", "-input=false", "tfplan")
	if err := e.configMapData("write-only", map[string]string{"token": second})(nil); err != nil {
		t.Fatal(err)
	}
	assertStateClean(t, w, first, second)
	job2 := currentJob(t, w)
	if job2 == job1 {
		t.Errorf("a changed data_wo_version ran no job (job_id %s)", job1)
	}

	// The version alone runs a job, too.
	w.write(e.writeOnlyConfig(3))
	w.mustRun("apply", "-input=false", "-auto-approve")
	if job3 := currentJob(t, w); job3 == job2 {
		t.Errorf("a changed data_wo_version alone ran no job (job_id %s)", job2)
	}
	// A value the mask cannot hide is refused at plan, naming where it is.
	w.env = append(w.env, "TF_VAR_token=abc")
	if out, err := w.run("plan", "-input=false"); err == nil ||
		!strings.Contains(out, "token: a write-only string must have at least 4") {
		t.Errorf("a 3-character write-only value was not refused at plan (%v):\n%s", err, out)
	}
	w.env = append(w.env, "TF_VAR_token="+second) // destroy plans (refreshes) the configuration first

	w.mustRun("destroy", "-input=false", "-auto-approve")
	if err := e.configMapsGone("write-only")(nil); err != nil {
		t.Error(err)
	}
}
