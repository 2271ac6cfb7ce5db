package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// checkedInstallation deploys the ConfigMap "checked" and, when broken is
// set, a second deploy item rendered from it (YAML of one list entry).
func (e *accEnv) checkedInstallation(broken string) string {
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
    - name: good
      type: landscaper.gardener.cloud/kubernetes-manifest
      target: {import: cluster}
      config:
        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
        kind: ProviderConfiguration
        manifests:
        - policy: manage
          manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: checked, namespace: %s}, data: {a: b}}
%s
`, e.namespace, indentLines(broken, "    "))
	return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "checked" {
  name      = "checked"
  namespace = %q
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { targets = { cluster = landscaper_target.cluster.target } }
}
`, e.namespace, blueprint)
}

// An unknown deploy item type and a configuration its deployer rejects
// fail the plan, naming the execution and the item, before anything is
// deployed (issue 10 item 6); the fixed configuration applies and destroys.
func TestAccInstallation_deployerChecksConfigAtPlan(t *testing.T) {
	e := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("checked"),
		Steps: []resource.TestStep{
			{
				Config: e.checkedInstallation(`- name: broken
  type: landscaper.gardener.cloud/kubernetes-manifest
  target: {import: cluster}
  config: {apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2, kind: ProviderConfiguration, manifests: [{policy: manage, manifest: not-an-object}]}`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)deploy execution "main".*deploy item "broken".*manifests\[0\] is not an\s+object`),
			},
			{
				Config:      e.checkedInstallation(`- {name: odd, type: example.com/no-such-deployer, config: {}}`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)deploy item "odd".*no deployer for deploy item type\s+"example.com/no-such-deployer"`),
			},
			{
				// the rejected plans deployed nothing
				Config: e.checkedInstallation(""),
				PreConfig: func() {
					if err := e.configMapsGone("checked")(nil); err != nil {
						t.Fatal(err)
					}
				},
				Check: e.configMapData("checked", map[string]string{"a": "b"}),
			},
		},
	})
}

// indentLines prefixes every line of s.
func indentLines(s, prefix string) string {
	if s == "" {
		return ""
	}
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
