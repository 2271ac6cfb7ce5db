package provider

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// A built-in item routed to an external deployer (a fenced environment,
// issue 32 defect 5) is previewed by its configuration, as the provider
// does not render what another deployer deploys; a Secret manifest inside
// it shows its data masked, in the plan's output and in `show -json` of
// the plan file, never the Secret import's value or its base64.
func TestAccSecurity_fencedSecretMaskedAtPlan(t *testing.T) {
	e := newAccEnv(t)
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	canary := fmt.Sprintf("fnc%x", b)
	if _, err := e.kube.CoreV1().Secrets(e.namespace).Create(context.Background(), &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "fenced-canary", Namespace: e.namespace},
		StringData: map[string]string{"password": canary},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	items := fmt.Sprintf(`- name: fenced
  type: landscaper.gardener.cloud/kubernetes-manifest
  target: {import: cluster}
  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    manifests:
    - policy: manage
      manifest:
        apiVersion: v1
        kind: Secret
        metadata: {name: fenced, namespace: %[1]s}
        stringData: {password: {{ .imports.password | quote }}}
        data: {encoded: {{ .imports.password | b64enc | quote }}}
`, e.namespace)
	bp := clusterBlueprint("- {name: password, type: data, schema: {type: string}}", items, "")
	w := newCLIWorkspace(t, fmt.Sprintf(`
provider "landscaper" {
  kubernetes         = { config_path = %[1]q }
  external_deployers = [{ types = ["landscaper.gardener.cloud/kubernetes-manifest"], namespace = %[2]q, targets = ["fenced"] }]
}

resource "landscaper_target" "fenced" {
  name       = "fenced"
  kubeconfig = file(%[1]q)
}

resource "landscaper_installation" "fenced" {
  name      = "fenced"
  namespace = %[2]q
  blueprint = { inline = { "blueprint.yaml" = %[3]q } }
  imports = {
    targets = { cluster = landscaper_target.fenced.target }
    secrets = { password = { name = "fenced-canary", namespace = %[2]q, key = "password" } }
  }
}
`, localcluster.KubeconfigPath(t), e.namespace, bp))
	forms := []string{canary, base64.StdEncoding.EncodeToString([]byte(canary))}
	out := w.mustRun("plan", "-input=false", "-no-color", "-out=fenced.tfplan")
	if !strings.Contains(out, "kind: Secret") || !strings.Contains(out, "(sensitive value") {
		t.Fatalf("the plan does not preview the fenced item's Secret with its data masked; the test sees nothing:\n%s", out)
	}
	show := w.mustRun("show", "-json", "fenced.tfplan")
	var doc any
	if err := json.Unmarshal([]byte(show), &doc); err != nil {
		t.Fatal(err)
	}
	for _, f := range forms {
		if strings.Contains(out, f) {
			t.Errorf("the plan output has the canary form %q", f)
		}
		for _, leak := range canaryOutsideSensitive(doc, f) {
			t.Errorf("show -json of the plan has %q outside sensitive values at %s", f, leak)
		}
	}
}
