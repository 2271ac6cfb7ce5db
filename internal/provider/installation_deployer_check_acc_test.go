package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// checkedInstallation deploys the ConfigMap "checked" and, when broken is
// set, a second deploy item rendered from it (YAML of one list entry).
func (e *accEnv) checkedInstallation(broken string) string {
	good := manifestItem("good", "", fmt.Sprintf("{apiVersion: v1, kind: ConfigMap, metadata: {name: checked, namespace: %s}, data: {a: b}}", e.namespace))
	return inlineInstallation(e.targetHCL, "checked", e.namespace, good+broken)
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
				ExpectError: regexp.MustCompile(`(?s)deploy\s+execution\s+"main".*deploy\s+item\s+"broken".*manifests\[0\]\s+is\s+not\s+an\s+object`),
			},
			{
				Config:      e.checkedInstallation(`- {name: odd, type: example.com/no-such-deployer, config: {}}`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)deploy\s+item\s+"odd".*no\s+deployer\s+for\s+deploy\s+item\s+type\s+"example.com/no-such-deployer".*name\s+the\s+type\s+in\s+the\s+provider.s\s+external_deployers`),
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
