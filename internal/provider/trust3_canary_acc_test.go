package provider

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// The canary of each kind through the CLI (issue 32 item 2): a Secret
// import holds a string, a number and a boolean; the blueprint deploys
// the string (also in base64) and the number (in a numeric field), and
// exports all three. No form of them — the string, its base64, the
// number's decimal — appears in the plan or apply output, in `show -json`
// outside sensitive values, in the state's plain attributes or in the
// TRACE log; the boolean's export is sensitive, not shown.
func TestAccSecurity_canaryOfEachKind(t *testing.T) {
	e := newAccEnv(t)
	n, err := rand.Int(rand.Reader, big.NewInt(9e7))
	if err != nil {
		t.Fatal(err)
	}
	pin := 10_000_000 + n.Int64() // eight digits, random: found only where it leaked
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	password := fmt.Sprintf("cnry%x", b)
	creds, _ := json.Marshal(map[string]any{"password": password, "pin": pin, "flags": map[string]any{"canaryOn": true}})
	if _, err := e.kube.CoreV1().Secrets(e.namespace).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "trust3-canary", Namespace: e.namespace},
		StringData: map[string]string{"creds": string(creds)},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	forms := []string{password, base64.StdEncoding.EncodeToString([]byte(password)), fmt.Sprint(pin)}

	w := newCLIWorkspace(t, fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %[1]q }
}
`, localcluster.KubeconfigPath(t))+e.targetHCL+fmt.Sprintf(`
resource "landscaper_installation" "kinds" {
  name      = "kinds"
  namespace = %[1]q
  blueprint = { path = %[2]q }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[1]q }
    secrets = { creds = { name = "trust3-canary", namespace = %[1]q, key = "creds" } }
  }
}

output "plain" { value = landscaper_installation.kinds.exports.plain }
`, e.namespace, blueprintDir(t, "trust3-canary-kinds")))
	logPath := filepath.Join(w.dir, "trace.log")
	w.env = append(w.env, "TF_LOG=TRACE", "TF_LOG_PATH="+logPath)
	defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
	leaks := func(what, text string) {
		t.Helper()
		for _, f := range forms {
			if i := strings.Index(text, f); i >= 0 {
				lo, hi := max(0, i-300), min(len(text), i+100)
				t.Errorf("%s has the canary form %q: …%s…", what, f, text[lo:hi])
			}
		}
	}
	leaks("the plan output", w.mustRun("plan", "-out=kinds.tfplan"))
	apply := w.mustRun("apply", "kinds.tfplan")
	leaks("the apply output", apply)
	if !strings.Contains(apply, "not-secret") {
		t.Errorf("a plain export is not shown; the test sees nothing:\n%s", apply)
	}
	show := w.mustRun("show", "-json")
	var doc any
	if err := json.Unmarshal([]byte(show), &doc); err != nil {
		t.Fatal(err)
	}
	for _, f := range forms {
		for _, leak := range canaryOutsideSensitive(doc, f) {
			t.Errorf("show -json has %q outside sensitive values at %s", f, leak)
		}
	}
	// The exports of each kind are sensitive by their value; the plain
	// one stays in exports.
	var state struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Type   string
					Values map[string]any
				}
			} `json:"root_module"`
		}
	}
	if err := json.Unmarshal([]byte(show), &state); err != nil {
		t.Fatal(err)
	}
	for _, r := range state.Values.RootModule.Resources {
		if r.Type != "landscaper_installation" {
			continue
		}
		exports, _ := r.Values["exports"].(map[string]any)
		for _, name := range []string{"password", "pin", "flags"} {
			if _, shown := exports[name]; shown {
				t.Errorf("export %s (a Secret import's %s) is in the plain exports: %v", name, name, exports)
			}
		}
		if exports["plain"] != "not-secret" {
			t.Errorf("the plain export is missing: %v", exports)
		}
		leaks("deploy_item_objects", fmt.Sprint(r.Values["deploy_item_objects"]))
	}
	leaks("the plan after apply", w.mustRun("plan"))
	trace, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	// Terraform 1.5's core logs a dynamic attribute's value at DEBUG when
	// it upgrades state ("UpgradeResourceState: ignoring dynamic block"),
	// sensitive ones too (sensitive_export_values): Terraform's line, not
	// the provider's, and the value is in the state file anyway.
	var own []string
	for _, line := range strings.Split(string(trace), "\n") {
		if !strings.Contains(line, "UpgradeResourceState: ignoring dynamic block") {
			own = append(own, line)
		}
	}
	leaks("the TRACE log", strings.Join(own, "\n"))
}
