package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// renderedItems is a landscaper_rendered_installation of one blueprint
// whose deploy execution renders items (YAML list entries).
func renderedItems(items string) string {
	return fmt.Sprintf(`
provider "landscaper" {}

data "landscaper_rendered_installation" "app" {
  name      = "app"
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { targets = { cluster = %s } }
}
`, clusterBlueprint("", items, ""), literalTargetHCL)
}

// Fields neither Landscaper's deployers nor the provider read are plan
// warnings naming the field's path, the execution with its file and the
// item, for manifest and Helm configurations; onDelete is a known field of
// the deploy item template, and its skipUninstallIfClusterRemoved says it
// has no effect here (issue 33 items 1 and 2).
func TestAccRenderedInstallation_unknownConfigFieldsWarn(t *testing.T) {
	items := `- name: manifests
  type: landscaper.gardener.cloud/kubernetes-manifest
  target: {import: cluster}
  onDelete: {skipUninstallIfClusterRemoved: true}
  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    updateStrategie: patch
    manifests: []
- name: release
  type: landscaper.gardener.cloud/helm
  target: {import: cluster}
  config:
    apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
    kind: ProviderConfiguration
    name: r
    namespace: default
    chart: {ref: "registry.example/charts/r:1.0.0"}
    helmDeploymentConfig: {install: {takeOwnership: true, dryRun: true}}
`
	prefix := `^installation app: deploy execution "main" \(inline template\): deploy item "`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: renderedItems(items),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue("data.landscaper_rendered_installation.app",
				tfjsonpath.New("warnings"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringRegexp(regexp.MustCompile(`deploy execution "main" \(inline template\): deployItems\[0\]\.onDelete\.skipUninstallIfClusterRemoved: has no effect here: .*delete_without_uninstall`)),
					knownvalue.StringRegexp(regexp.MustCompile(prefix + `manifests": config\.updateStrategie: unknown field of the manifest deployer's configuration, ignored`)),
					knownvalue.StringRegexp(regexp.MustCompile(prefix + `release": config\.helmDeploymentConfig\.install\.dryRun: unknown field of the Helm deployer's configuration, ignored`)),
				}))},
		}},
	})
}

// A targetName (Landscaper's additional targets) that none of the
// installation's target imports has fails the plan naming the item, the
// name and the names it knows; so does a custom readiness check written
// without Landscaper's {value: …} entries (issue 33 items 3 and 9).
func TestAccRenderedInstallation_fieldsRefusedAtPlan(t *testing.T) {
	check := func(extra string) string {
		return `- name: app
  type: landscaper.gardener.cloud/kubernetes-manifest
  target: {import: cluster}
  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    manifests: []
` + indentLines(extra, "    ") + "\n"
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: renderedItems(check(`deletionGroups:
- customResourceGroup: {deleteAllResources: true, targetName: secondary, resources: [{apiVersion: v1, kind: ConfigMap}]}`)),
				ExpectError: regexp.MustCompile(`(?s)deploy\s+item\s+"app":\s+targetName\s+"secondary"\s+is\s+none\s+of\s+the\s+installation's\s+target\s+imports.*known:\s+cluster`),
			},
			{
				Config: renderedItems(check(`readinessChecks:
  custom:
  - name: app-ready
    resourceSelector: [{apiVersion: v1, kind: ConfigMap, name: app, namespace: default}]
    requirements: [{jsonPath: .data.ready, operator: "==", values: ["true"]}]`)),
				ExpectError: regexp.MustCompile(`(?s)deploy item\s+"app".*readinessChecks\.custom\[0\]\s+\(app-ready\)\.requirements\[0\]:\s+values\[0\]\s+is\s+a\s+string,\s+not\s+an\s+object\s+\{value:\s+…\}`),
			},
		},
	})
}

// A custom readiness check written as Landscaper's docs write it
// (values: [{value: "true"}]) passes once the object holds the value, and
// the apply succeeds (issue 33 item 9: it used to wait until its timeout).
func TestAccInstallation_customReadinessCheckLandscaperForm(t *testing.T) {
	e := newAccEnv(t)
	cm := fmt.Sprintf("{apiVersion: v1, kind: ConfigMap, metadata: {name: app, namespace: %s}, data: {ready: \"true\"}}", e.namespace)
	item := manifestItem("app", "timeout: 30s", cm) + fmt.Sprintf(`    readinessChecks:
      custom:
      - name: app-ready
        resourceSelector: [{apiVersion: v1, kind: ConfigMap, name: app, namespace: %s}]
        requirements:
        - jsonPath: .data.ready
          operator: ==
          values:
          - value: "true"
`, e.namespace)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("app"),
		Steps: []resource.TestStep{{
			Config: inlineInstallation(e.targetHCL, "ready", e.namespace, item),
			Check:  e.configMapData("app", map[string]string{"ready": "true"}),
		}},
	})
}
