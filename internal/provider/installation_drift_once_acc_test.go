package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// onceInstallation deploys the ConfigMap "once" from an updateOnChangeOnly
// deploy item.
func (e *accEnv) onceInstallation() string {
	blueprint := fmt.Sprintf(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: once
      type: landscaper.gardener.cloud/kubernetes-manifest
      target: {import: cluster}
      updateOnChangeOnly: true
      config:
        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
        kind: ProviderConfiguration
        manifests:
        - policy: manage
          manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: once, namespace: %s}, data: {a: b}}
`, e.namespace)
	return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "once" {
  name      = "once"
  namespace = %q
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { targets = { cluster = landscaper_target.cluster.target } }
}
`, e.namespace, blueprint)
}

// An updateOnChangeOnly item whose object was deleted out of band shows as
// drift, and the apply repairs it although its configuration did not
// change (issue 10 item 8; before, it stayed drifted forever).
func TestAccInstallation_updateOnChangeOnlyDriftRepaired(t *testing.T) {
	e := newAccEnv(t)
	inst := "landscaper_installation.once"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("once"),
		Steps: []resource.TestStep{
			{Config: e.onceInstallation(), Check: e.configMapData("once", map[string]string{"a": "b"})},
			{
				PreConfig: func() {
					if err := e.kube.CoreV1().ConfigMaps(e.namespace).Delete(context.Background(), "once", metav1.DeleteOptions{}); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.onceInstallation(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate),
				}},
				Check: e.configMapData("once", map[string]string{"a": "b"}),
			},
			{Config: e.onceInstallation(), PlanOnly: true},
		},
	})
}
