package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// execHostTarget creates a Landscaper Target on the host cluster whose
// kubeconfig reaches the local cluster through users[].user.exec: a
// shell that touches marker and prints the local cluster's client
// certificate as an ExecCredential. labels are the Target's.
func (e *accEnv) execHostTarget(dyn dynamic.Interface, name, marker string, labels map[string]any) {
	e.t.Helper()
	local, err := clientcmd.Load([]byte(localcluster.Kubeconfig(e.t)))
	if err != nil {
		e.t.Fatal(err)
	}
	ctx := local.Contexts[local.CurrentContext]
	cluster, user := local.Clusters[ctx.Cluster], local.AuthInfos[ctx.AuthInfo]
	cred, _ := json.Marshal(map[string]any{"apiVersion": "client.authentication.k8s.io/v1", "kind": "ExecCredential",
		"status": map[string]any{"clientCertificateData": string(user.ClientCertificateData), "clientKeyData": string(user.ClientKeyData)}})
	credFile := filepath.Join(e.t.TempDir(), "credential.json")
	if err := os.WriteFile(credFile, cred, 0o600); err != nil {
		e.t.Fatal(err)
	}
	kubeconfig := fmt.Sprintf(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: %q, certificate-authority-data: %s}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, interactiveMode: Never, command: /bin/sh, args: ["-c", "touch %s; cat %s"]}}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`, cluster.Server, base64.StdEncoding.EncodeToString(cluster.CertificateAuthorityData), marker, credFile)
	metadata := map[string]any{"name": name}
	if labels != nil {
		metadata["labels"] = labels
	}
	obj := &unstructured.Unstructured{Object: map[string]any{"apiVersion": landscaperyaml.APIVersion, "kind": "Target", "metadata": metadata,
		"spec": map[string]any{"type": "landscaper.gardener.cloud/kubernetes-cluster", "config": map[string]any{"kubeconfig": kubeconfig}}}}
	if _, err := dyn.Resource(landscaperfixture.GVR("Target")).Namespace(e.namespace).Create(context.Background(), obj, metav1.CreateOptions{}); err != nil {
		e.t.Fatal(err)
	}
}

// hostTargetInstallation is an installation given as a manifest that
// deploys a ConfigMap of its name through the Target target, which
// manifest_objects does not hold: it is read from the host cluster.
func (e *accEnv) hostTargetInstallation(name, target string) string {
	return fmt.Sprintf(`
resource "landscaper_installation" %[1]q {
  name      = %[1]q
  namespace = %[2]q
  manifest  = <<-EOT
    apiVersion: landscaper.gardener.cloud/v1alpha1
    kind: Installation
    metadata: {name: %[1]s}
    spec:
      blueprint:
        inline:
          filesystem:
            blueprint.yaml: |
              apiVersion: landscaper.gardener.cloud/v1alpha1
              kind: Blueprint
              imports:
              - {name: cluster, targetType: landscaper.gardener.cloud/kubernetes-cluster}
              deployExecutions:
              - name: main
                type: GoTemplate
                template: |
                  deployItems:
                  - name: cm
                    type: landscaper.gardener.cloud/kubernetes-manifest
                    target: {import: cluster}
                    config:
                      apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
                      kind: ProviderConfiguration
                      manifests:
                      - manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: %[1]s, namespace: %[2]s}, data: {k: v}}
      imports:
        targets:
        - {name: cluster, target: %[3]s}
  EOT
}
`, name, e.namespace, target)
}

// A manifest imports a Target that the host cluster holds and whose
// kubeconfig runs a program (users[].user.exec). Whoever may write
// Targets there is not necessarily who runs Terraform, so the program
// never runs: the apply fails naming the refused field and how to trust
// the Target (trusted_host_targets). Named there, the Target is trusted
// and the installation deploys through it. A host Target labeled as
// exported by another installation stays refused even when named: only
// allow_exec_in_blueprint_targets would let it run. Before, both ran
// their program at apply.
func TestAccSecurity_execKubeconfigInHostTarget(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := landscaperfixture.EnsureCRDs(context.Background(), dyn); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	hostMarker, exportedMarker := filepath.Join(dir, "host-ran"), filepath.Join(dir, "exported-ran")
	e.execHostTarget(dyn, "host-exec", hostMarker, nil)
	e.execHostTarget(dyn, "exported-exec", exportedMarker, map[string]any{
		"data.landscaper.gardener.cloud/sourceType": "export", "data.landscaper.gardener.cloud/source": "Inst.other"})
	provider := func(trusted string) string {
		if trusted != "" {
			trusted = "trusted_host_targets = [" + trusted + "]"
		}
		return fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %q }
  %s
}
`, localcluster.KubeconfigPath(t), trusted)
	}
	ran := func(marker string) bool {
		_, err := os.Stat(marker)
		return err == nil
	}

	w := newCLIWorkspace(t, provider("")+e.hostTargetInstallation("via-host", "host-exec"))
	defer w.run("destroy", "-auto-approve") //nolint:errcheck // best-effort cleanup; the checks below decide
	out, err := w.run("apply", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("apply through an untrusted host Target succeeded:\n%s", out)
	}
	for _, want := range []string{"users[].user.exec", "read from the host cluster", fmt.Sprintf(`add "%s/host-exec" to trusted_host_targets`, e.namespace)} {
		if !wrapped(want).MatchString(out) {
			t.Fatalf("the error does not say %q:\n%s", want, out)
		}
	}
	if ran(hostMarker) {
		t.Fatal("the host Target's exec command ran")
	}

	trusted := fmt.Sprintf("%q, %q", e.namespace+"/host-exec", e.namespace+"/exported-exec")
	w.write(provider(trusted) + e.hostTargetInstallation("via-host", "host-exec"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	if !ran(hostMarker) {
		t.Fatal("the host Target named in trusted_host_targets was not used")
	}
	if err := e.configMapData("via-host", map[string]string{"k": "v"})(nil); err != nil {
		t.Fatal(err)
	}

	w.write(provider(trusted) + e.hostTargetInstallation("via-host", "host-exec") + e.hostTargetInstallation("via-exported", "exported-exec"))
	out, err = w.run("apply", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("apply through an exported host Target succeeded:\n%s", out)
	}
	for _, want := range []string{"users[].user.exec", `labeled as exported by installation "other"`, "allow_exec_in_blueprint_targets = true"} {
		if !wrapped(want).MatchString(out) {
			t.Fatalf("the error does not say %q:\n%s", want, out)
		}
	}
	if ran(exportedMarker) {
		t.Fatal("the exported host Target's exec command ran")
	}
}
