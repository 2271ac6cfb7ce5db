package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// planChange is one resource's change in `terraform show -json PLAN`.
type planChange struct {
	Address string `json:"address"`
	Change  struct {
		Actions      []string        `json:"actions"`
		After        json.RawMessage `json:"after"`
		AfterUnknown json.RawMessage `json:"after_unknown"`
	} `json:"change"`
}

func planChanges(t *testing.T, w *cliWorkspace, planFile string) map[string]planChange {
	t.Helper()
	var plan struct {
		ResourceChanges []planChange `json:"resource_changes"`
	}
	if err := json.Unmarshal([]byte(w.mustRun("show", "-json", planFile)), &plan); err != nil {
		t.Fatal(err)
	}
	out := map[string]planChange{}
	for _, c := range plan.ResourceChanges {
		out[c.Address] = c
	}
	return out
}

// afterField decodes one attribute of a change's after or after_unknown.
func afterField(t *testing.T, raw json.RawMessage, name string) any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m[name]
}

func exports34DecidedHCL(e *accEnv, greeting string, extra ...string) string {
	return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "decided" {
  name      = "decided"
  namespace = %[1]q
  blueprint = { path = %[2]q }
  %[5]s
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[1]q, greeting = %[3]q }
  }
}

resource "landscaper_installation" "downstream" {
  name      = "downstream"
  namespace = %[1]q
  blueprint = { path = %[4]q }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[1]q, url = landscaper_installation.decided.exports.url }
  }
}
`, e.namespace, blueprintDir(e.t, "exports34-decided"), greeting, blueprintDir(e.t, "exports34-downstream"), strings.Join(extra, "\n  "))
}

// A change of an installation whose exports follow from what the plan
// renders leaves them known: the Service's port and the ConfigMap's data
// come from the rendered objects, the export executions run at plan, and
// the installation importing the URL shows no change. The clusterIP the
// API server allocates stays unknown, that export alone.
func TestAccExports34_knownAtPlan(t *testing.T) {
	e := newAccEnv(t)
	w := newCLIWorkspace(t, exports34DecidedHCL(e, "hello"))
	defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
	w.mustRun("apply", "-auto-approve")

	w.write(exports34DecidedHCL(e, "hi"))
	out := w.mustRun("plan", "-out=change.tfplan")
	if !strings.Contains(out, "Plan: 0 to add, 1 to change, 0 to destroy.") {
		t.Fatalf("a greeting change should change the exporting installation alone:\n%s", out)
	}
	if strings.Contains(out, "landscaper_installation.downstream will be updated") {
		t.Fatalf("the downstream installation changes although the URL it imports follows from the plan:\n%s", out)
	}
	changes := planChanges(t, w, "change.tfplan")
	decided := changes["landscaper_installation.decided"]
	exports, _ := afterField(t, decided.Change.After, "exports").(map[string]any)
	if exports["url"] != "http://decided."+e.namespace+".svc:8080" || exports["greeting"] != "hi" {
		t.Errorf("the exports that follow from the rendered objects are not planned as known: %v", exports)
	}
	if _, known := exports["clusterIP"]; known {
		t.Errorf("the clusterIP the API server allocates is planned as known: %v", exports)
	}
	unknown := afterField(t, decided.Change.AfterUnknown, "exports")
	if u, ok := unknown.(map[string]any); !ok || len(u) != 1 || u["clusterIP"] != true {
		t.Errorf("exports should be unknown in clusterIP alone, after_unknown.exports = %v", unknown)
	}
	// The apply produces what the plan said (Terraform checks it).
	w.mustRun("apply", "change.tfplan")
	if out := w.mustRun("plan", "-detailed-exitcode"); !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan after the apply is not empty:\n%s", out)
	}
	cm, err := e.kube.CoreV1().ConfigMaps(e.namespace).Get(t.Context(), "downstream", metav1.GetOptions{})
	if err != nil || cm.Data["url"] != "http://decided."+e.namespace+".svc:8080" {
		t.Fatalf("downstream ConfigMap: %v %v", cm, err)
	}
}

// With plan_diff = "server" the exports come from the dry-run objects,
// still only where the rendering sets the field; an export named in
// sensitive_exports is planned known, in sensitive_export_values (shown
// as "(sensitive value)").
func TestAccExports34_serverAndSensitive(t *testing.T) {
	e := newAccEnv(t)
	extra := []string{`plan_diff = "server"`, `sensitive_exports = ["greeting"]`}
	w := newCLIWorkspace(t, exports34DecidedHCL(e, "hello", extra...))
	defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
	w.mustRun("apply", "-auto-approve")

	w.write(exports34DecidedHCL(e, "psst-s3cr3t", extra...))
	out := w.mustRun("plan", "-out=change.tfplan")
	if !strings.Contains(out, "Plan: 0 to add, 1 to change, 0 to destroy.") || strings.Contains(out, "landscaper_installation.downstream will be updated") {
		t.Fatalf("a greeting change should change the exporting installation alone:\n%s", out)
	}
	changes := planChanges(t, w, "change.tfplan")
	decided := changes["landscaper_installation.decided"]
	exports, _ := afterField(t, decided.Change.After, "exports").(map[string]any)
	if exports["url"] != "http://decided."+e.namespace+".svc:8080" {
		t.Errorf("url is not planned from the dry-run object: %v", exports)
	}
	if _, public := exports["greeting"]; public {
		t.Errorf("a sensitive export is planned in exports: %v", exports)
	}
	secret, _ := afterField(t, decided.Change.After, "sensitive_export_values").(map[string]any)
	if secret["greeting"] != "psst-s3cr3t" {
		t.Errorf("the sensitive export is not planned known: %v", secret)
	}
	if u, ok := afterField(t, decided.Change.AfterUnknown, "exports").(map[string]any); !ok || len(u) != 1 || u["clusterIP"] != true {
		t.Errorf("exports should be unknown in clusterIP alone: %v", u)
	}
	w.mustRun("apply", "change.tfplan")
	if out := w.mustRun("plan"); !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan after the apply is not empty:\n%s", out)
	}
}

// The quickstart's greeting change plans `client` as unchanged: the URL
// echo exports follows from the namespace and the port of the Service
// its chart renders, although the Helm item itself keeps its text.
func TestAccExports34_quickstartGreeting(t *testing.T) {
	e := newAccEnv(t)
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "quickstart"))
	if err != nil {
		t.Fatal(err)
	}
	ns := e.namespace + "-qs"
	w := newCLIWorkspace(t, quickstartHCL(t, dir))
	vars := func(greeting string) []string {
		return []string{"-var", "kubeconfig_path=" + localcluster.KubeconfigPath(t), "-var", "namespace=" + ns, "-var", "greeting=" + greeting}
	}
	defer w.run(append([]string{"destroy", "-auto-approve"}, vars("hello")...)...) //nolint:errcheck // best-effort cleanup
	w.mustRun(append([]string{"apply", "-auto-approve"}, vars("hello")...)...)
	out := w.mustRun(append([]string{"plan", "-out=greeting.tfplan"}, vars("hi")...)...)
	if !strings.Contains(out, "Plan: 0 to add, 1 to change, 0 to destroy.") || strings.Contains(out, "landscaper_installation.client will be updated") {
		t.Fatalf("the greeting change should change echo alone:\n%s", out)
	}
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "known after apply") && !strings.Contains(l, "job_id") {
			t.Errorf("the greeting change leaves more than the job unknown: %q\n%s", l, out)
		}
		if strings.Contains(l, "target_exports") {
			t.Errorf("the greeting change changes target_exports: %q", l)
		}
	}
	w.mustRun("apply", "greeting.tfplan")
	if out := w.mustRun(append([]string{"plan"}, vars("hi")...)...); !strings.Contains(out, "No changes.") {
		t.Fatalf("the plan after the apply is not empty:\n%s", out)
	}
}

// quickstartHCL is examples/quickstart/main.tf without its terraform
// block (the workspace writes one) and with absolute blueprint paths.
func quickstartHCL(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	main := string(b)
	i := strings.Index(main, `provider "landscaper"`)
	if i < 0 {
		t.Fatal("examples/quickstart/main.tf has no provider block")
	}
	return strings.ReplaceAll(main[i:], "${path.module}/blueprints", filepath.Join(dir, "blueprints"))
}
