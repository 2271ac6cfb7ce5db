package provider

import (
	"archive/zip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/tfcli"
)

// credentialNeedles are strings of the local cluster's client key, as
// they would appear if the kubeconfig leaked anywhere: the base64 of
// client-key-data (inside a kubeconfig) and a line of the PEM key itself.
func credentialNeedles(t *testing.T, kubeconfig []byte) []string {
	t.Helper()
	cfg, err := clientcmd.Load(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	var needles []string
	for _, u := range cfg.AuthInfos {
		if len(u.ClientKeyData) > 0 {
			needles = append(needles, base64.StdEncoding.EncodeToString(u.ClientKeyData))
			if lines := strings.Split(string(u.ClientKeyData), "\n"); len(lines) > 2 {
				needles = append(needles, lines[1])
			}
		}
		if u.Token != "" {
			needles = append(needles, u.Token)
		}
	}
	if len(needles) == 0 {
		t.Fatal("the local cluster's kubeconfig has no client key or token to look for")
	}
	return needles
}

// assertNoCredential fails when any needle occurs in what.
func assertNoCredential(t *testing.T, where string, what []byte, needles []string) {
	t.Helper()
	for _, n := range needles {
		if strings.Contains(string(what), n) {
			t.Errorf("%s holds the target's kubeconfig credentials", where)
			return
		}
	}
}

// zipEntries returns the files of a plan file, which is a zip archive.
func zipEntries(t *testing.T, file string) map[string][]byte {
	t.Helper()
	r, err := zip.OpenReader(file)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	out := map[string][]byte{}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = b
	}
	return out
}

// decodePrivate undoes both layers of base64 of a private state (the
// state file's, and the framework's around each key's value) and the
// engine snapshot's compression, so a search sees every byte stored.
func decodePrivate(t *testing.T, private string) []byte {
	t.Helper()
	if private == "" {
		return nil
	}
	b, err := base64.StdEncoding.DecodeString(private)
	if err != nil {
		t.Fatalf("private state: %v", err)
	}
	var keys map[string]string
	if err := json.Unmarshal(b, &keys); err != nil {
		t.Fatalf("private state %s: %v", b, err)
	}
	var all []byte
	for k, v := range keys {
		value, err := base64.StdEncoding.DecodeString(v)
		if err != nil {
			t.Fatalf("private state key %s: %v", k, err)
		}
		if k == shared.SnapshotKey && len(value) > 0 && value[0] == '"' { // compressed (private_snapshot.go)
			if value, err = shared.UnpackSnapshot(value, shared.MaxSnapshotBytes); err != nil {
				t.Fatalf("private state key %s: %v", k, err)
			}
		}
		all = append(append(all, k+"="...), value...)
	}
	return all
}

// privateStates decodes the private data of every resource instance in a
// local state file (base64 in the file, so a plain search would miss it).
func privateStates(t *testing.T, stateFile []byte) map[string][]byte {
	t.Helper()
	var st struct {
		Resources []struct {
			Type      string `json:"type"`
			Instances []struct {
				Private string `json:"private"`
			} `json:"instances"`
		} `json:"resources"`
	}
	if err := json.Unmarshal(stateFile, &st); err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, r := range st.Resources {
		for i, in := range r.Instances {
			out[fmt.Sprintf("%s[%d]", r.Type, i)] = decodePrivate(t, in.Private)
		}
	}
	return out
}

// A kubeconfig given only in the provider block (from an ephemeral
// variable where the CLI has them, else file()) deploys, refreshes and
// destroys, and is in no state, plan file, `show -json` or private state:
// the target and the engine's snapshot hold only a reference to it.
func TestAccTarget_kubeconfigFromProvider(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	kubeconfigPath := localcluster.KubeconfigPath(t)
	kubeconfig, err := os.ReadFile(kubeconfigPath)
	if err != nil {
		t.Fatal(err)
	}
	needles := credentialNeedles(t, kubeconfig)

	source := fmt.Sprintf("file(%q)", kubeconfigPath)
	variable := ""
	if tfcli.Name() != tfcli.Terraform { // Terraform 1.5 has no ephemeral variables
		source = "var.kubeconfig"
		variable = `
variable "kubeconfig" {
  type      = string
  sensitive = true
  ephemeral = true
}
`
	}
	providerBlock := fmt.Sprintf(`
provider "landscaper" {
  target_kubeconfigs = { cluster = %s }
}
`, source)
	target := `
resource "landscaper_target" "cluster" {
  name                     = "cluster"
  kubeconfig_from_provider = true
}
`
	config := variable + inlineInstallation(target, "app", e.namespace, manifestItem("config", "",
		"{apiVersion: v1, kind: ConfigMap, metadata: {name: from-provider, namespace: "+e.namespace+"}, data: {a: b}}"))
	w := newCLIWorkspace(t, providerBlock+config)
	w.env = append(w.env, "TF_VAR_kubeconfig="+string(kubeconfig))
	w.mustRun("init", "-input=false", "-plugin-dir="+providerMirror(t))

	w.mustRun("plan", "-input=false", "-out=tfplan")
	for name, b := range zipEntries(t, filepath.Join(w.dir, "tfplan")) {
		assertNoCredential(t, "plan file entry "+name, b, needles)
	}
	assertNoCredential(t, "show -json of the plan", []byte(w.mustRun("show", "-json", "tfplan")), needles)

	w.mustRun("apply", "-input=false", "tfplan")
	if err := e.configMapData("from-provider", map[string]string{"a": "b"})(nil); err != nil {
		t.Fatal(err)
	}
	state, err := os.ReadFile(filepath.Join(w.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	assertNoCredential(t, "the state file", state, needles)
	assertNoCredential(t, "show -json of the state", []byte(w.mustRun("show", "-json")), needles)
	private := privateStates(t, state)
	snapshot := private["landscaper_installation[0]"]
	// The reference is there: the decoding reached the targets of the snapshot.
	if !strings.Contains(string(snapshot), api.KubeconfigFromProviderAnnotation) {
		t.Errorf("the installation's private state records no target with the provider reference:\n%s", snapshot)
	}
	for name, b := range private {
		assertNoCredential(t, "private state of "+name, b, needles)
	}

	// Refresh reads the deployed objects with the provider's kubeconfig.
	if out, err := w.run("plan", "-input=false", "-detailed-exitcode"); err != nil {
		t.Fatalf("plan after apply is not empty (%v):\n%s", err, out)
	}

	// Destroy needs the kubeconfig too: without it, it fails naming the
	// missing entry and keeps everything recorded; with it, it succeeds.
	w.write(config + `
provider "landscaper" {
  target_kubeconfigs = {}
}
`)
	out, err := w.run("destroy", "-auto-approve", "-input=false", "-refresh=false")
	if err == nil || !strings.Contains(out, `target_kubeconfigs has no entry "cluster"`) {
		t.Fatalf("destroy without the kubeconfig: err=%v, want the missing entry named:\n%s", err, out)
	}
	if err := e.configMapData("from-provider", map[string]string{"a": "b"})(nil); err != nil {
		t.Fatal(err)
	}
	if out := w.mustRun("state", "list"); !strings.Contains(out, "landscaper_installation.app") {
		t.Fatalf("a failed destroy lost the installation from state:\n%s", out)
	}
	w.write(providerBlock + config)
	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("from-provider")(nil); err != nil {
		t.Error(err)
	}
}
