package provider

import (
	"context"
	"fmt"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// borrowerBlueprint builds, in its subinstallation "maker", a Target
// named "cluster" with the reference it imports as `ref`, and deploys
// the ConfigMap "borrowed" to it from its subinstallation "user": what a
// blueprint does that read another installation's reference from that
// installation's inventory (issue 32, suspicion b).
func borrowerBlueprint(namespace string) string {
	maker := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: ref
  schema: {type: string}
exports:
- name: made
  targetType: landscaper.gardener.cloud/kubernetes-cluster
exportExecutions:
- name: exp
  type: GoTemplate
  template: |
    exports:
      made:
        type: landscaper.gardener.cloud/kubernetes-cluster
        annotations: {"` + api.KubeconfigFromProviderAnnotation + `": {{ .imports.ref | quote }}}
`
	user := fmt.Sprintf(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: borrowed
      type: landscaper.gardener.cloud/kubernetes-manifest
      target: {import: cluster}
      config:
        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
        kind: ProviderConfiguration
        manifests:
        - manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: borrowed, namespace: %s}, data: {item: borrowed}}
`, namespace)
	return fmt.Sprintf(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: ref
  schema: {type: string}
subinstallations:
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: maker
  blueprint:
    filesystem:
      blueprint.yaml: %q
  imports:
    data: [{name: ref, dataRef: ref}]
  exports:
    targets: [{name: made, target: cluster}]
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: user
  blueprint:
    filesystem:
      blueprint.yaml: %q
  imports:
    targets: [{name: cluster, target: cluster}]
`, maker, user)
}

// Two installations of one configuration: "owner" takes the provider
// block's kubeconfig "cluster" through provider_targets; "borrower"'s
// blueprint makes a Target of that name with owner's reference. The pool
// allows the reference for the whole provider process, but the engine
// honours it only in owner's job: borrower fails with UntrustedTarget and
// deploys nothing, owner applies, and both destroy.
func TestAccInstallation_providerTargetReferenceNotBorrowed(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	config := e.providerTargetsInstallation("owner", "owned") + fmt.Sprintf(`
resource "landscaper_installation" "borrower" {
  name      = "borrower"
  namespace = %q
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = {
    data = { ref = landscaper_installation.owner.provider_target_references["cluster"] }
  }
}
`, e.namespace, borrowerBlueprint(e.namespace))
	w := newCLIWorkspace(t, config)
	defer w.run("destroy", "-auto-approve", "-input=false") //nolint:errcheck // best-effort cleanup; the checks below decide
	out, err := w.run("apply", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("the borrower's apply succeeded:\n%s", out)
	}
	if !wrapped(`target "cluster" refers to a kubeconfig of the provider block, but it is none of the target imports of this installation`).MatchString(out) {
		t.Fatalf("the apply does not refuse the borrowed target:\n%s", out)
	}
	if _, err := e.kube.CoreV1().ConfigMaps(e.namespace).Get(context.Background(), "borrowed", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("the borrower deployed through the owner's kubeconfig: %v", err)
	}
	if err := e.configMapData("owned", map[string]string{"item": "owned"})(nil); err != nil {
		t.Fatalf("the owner did not apply: %v", err)
	}
	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("owned", "borrowed")(nil); err != nil {
		t.Fatal(err)
	}
}
