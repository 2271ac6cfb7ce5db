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

// A deploy item whose configuration sets continuousReconcile plans with a
// warning naming the item and saying what the provider does instead
// (drift on every plan and refresh), for manifest and Helm items alike;
// the plan of landscaper_installation shows the same warnings as
// diagnostics (renderTree). Items without it add none.
func TestAccRenderedInstallation_continuousReconcileWarning(t *testing.T) {
	items := `- name: manifests
  type: landscaper.gardener.cloud/kubernetes-manifest
  target: {import: cluster}
  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    continuousReconcile: {every: 1h}
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
    continuousReconcile: {cron: "0 * * * *"}
- name: quiet
  type: landscaper.gardener.cloud/kubernetes-manifest
  target: {import: cluster}
  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    manifests: []
`
	config := fmt.Sprintf(`
provider "landscaper" {}

data "landscaper_rendered_installation" "app" {
  name      = "app"
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { targets = { cluster = %s } }
}
`, clusterBlueprint("", items, ""), literalTargetHCL)
	warning := func(item string) knownvalue.Check {
		return knownvalue.StringRegexp(regexp.MustCompile(`^installation app: deploy execution "main" \(inline template\): deploy item "` + item +
			`": continuousReconcile is ignored: .*every plan and refresh checks what the item deployed for drift`))
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue("data.landscaper_rendered_installation.app",
				tfjsonpath.New("warnings"), knownvalue.ListExact([]knownvalue.Check{warning("manifests"), warning("release")}))},
		}},
	})
}
