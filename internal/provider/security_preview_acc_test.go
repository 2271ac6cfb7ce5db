package provider

import (
	"archive/zip"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// canaryInPlanDiff is the successful part of the secret canary test: the
// canary, read from a Secret import, lands in a ConfigMap (as itself and
// as a URL's password and query), a Secret, and through Helm values in a
// chart's ConfigMap and Secret. deploy_item_objects shows those objects
// with the canary masked, and the canary appears in no output of the CLI,
// not in the plan file, not in `show -json` of the plan or the state
// outside sensitive values, not in the state's attributes and not in the
// TRACE log.
func canaryInPlanDiff(t *testing.T, e *accEnv, secretName, canary string) {
	// Only the Secret holds the canary: no sensitive variable, whose value
	// the CLI itself keeps in the plan file.
	w := newCLIWorkspace(t, fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %[4]q }
}
`, e.namespace, blueprintDir(t, "security-canary-preview"), secretName, localcluster.KubeconfigPath(t))+e.targetHCL+fmt.Sprintf(`
resource "landscaper_installation" "preview" {
  name      = "preview"
  namespace = %[1]q
  blueprint = { path = %[2]q }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[1]q }
    secrets = { password = { name = %[3]q, namespace = %[1]q, key = "password" } }
  }
}
`, e.namespace, blueprintDir(t, "security-canary-preview"), secretName))
	logPath := filepath.Join(w.dir, "trace.log")
	w.env = append(w.env, "TF_LOG=TRACE", "TF_LOG_PATH="+logPath)
	defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
	leaks := func(what, text string) {
		t.Helper()
		if i := strings.Index(text, canary); i >= 0 {
			lo, hi := max(0, i-300), min(len(text), i+100)
			t.Errorf("%s has the canary: …%s…", what, text[lo:hi])
		}
	}
	plan := w.mustRun("plan", "-out=canary.tfplan")
	leaks("the plan output", plan)
	for _, masked := range []string{"password: (sensitive value v1)", "url: https://app:(sensitive value v1)@db.example/app?(sensitive value v1)",
		`"v1 ConfigMap canary-preview-config"`, `"v1 Secret canary-preview-secret"`} {
		if !strings.Contains(plan, masked) {
			t.Errorf("the plan does not show %q:\n%s", masked, plan)
		}
	}
	zr, err := zip.OpenReader(filepath.Join(w.dir, "canary.tfplan"))
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		leaks("the plan file's "+f.Name, string(b))
	}
	for what, args := range map[string][]string{"show -json of the plan": {"show", "-json", "canary.tfplan"}} {
		checkShowJSON(t, what, w.mustRun(args...), canary)
	}
	leaks("the apply output", w.mustRun("apply", "canary.tfplan"))
	checkShowJSON(t, "show -json of the state", w.mustRun("show", "-json"), canary)
	state, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Resources []struct {
			Type      string
			Instances []struct{ Attributes map[string]any }
		}
	}
	if err := json.Unmarshal(state, &doc); err != nil {
		t.Fatal(err)
	}
	shown := 0
	for _, r := range doc.Resources {
		for _, in := range r.Instances {
			if raw, ok := in.Attributes["deploy_item_objects"].(string); ok {
				var objs map[string]json.RawMessage // item → its objects' lines
				if err := json.Unmarshal([]byte(raw), &objs); err != nil {
					t.Errorf("the state's deploy_item_objects: %v", err)
				}
				leaks("the state's deploy_item_objects", raw)
				shown += len(objs)
			}
		}
	}
	if shown != 2 {
		t.Errorf("the state records %d items' objects, want 2", shown)
	}
	leaks("the plan after apply", w.mustRun("plan"))
	trace, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	leaks("the TRACE log", string(trace))
}

// checkShowJSON fails when `show -json` output has the canary outside
// sensitive values.
func checkShowJSON(t *testing.T, what, show, canary string) {
	t.Helper()
	var doc any
	if err := json.Unmarshal([]byte(show), &doc); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	for _, leak := range canaryOutsideSensitive(doc, canary) {
		t.Errorf("%s has the canary outside sensitive values at %s", what, leak)
	}
}
