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

// standInTreeConfig renders a root whose "server" subinstallation imports
// the exports of its sibling "cluster" (a target and an endpoint), with
// the given subinstallation_exports.
func standInTreeConfig(exports string) string {
	return fmt.Sprintf(`
data "landscaper_rendered_installation" "svc" {
  name      = "svc"
  blueprint = { inline = { "blueprint.yaml" = <<-EOT
    apiVersion: landscaper.gardener.cloud/v1alpha1
    kind: Blueprint
    subinstallations:
    - apiVersion: landscaper.gardener.cloud/v1alpha1
      kind: InstallationTemplate
      name: cluster
      blueprint:
        filesystem:
          blueprint.yaml: |
            apiVersion: landscaper.gardener.cloud/v1alpha1
            kind: Blueprint
            exports:
            - {name: created, targetType: landscaper.gardener.cloud/kubernetes-cluster}
            - {name: endpoint, schema: {type: string}}
            deployExecutions:
            - name: main
              type: GoTemplate
              template: |
                {{ fail "a stood-in subinstallation is not rendered" }}
      exports:
        targets: [{name: created, target: workload}]
        data: [{name: endpoint, dataRef: workloadEndpoint}]
    - apiVersion: landscaper.gardener.cloud/v1alpha1
      kind: InstallationTemplate
      name: server
      blueprint:
        filesystem:
          blueprint.yaml: |
            apiVersion: landscaper.gardener.cloud/v1alpha1
            kind: Blueprint
            imports:
            - {name: host, targetType: landscaper.gardener.cloud/kubernetes-cluster}
            - {name: endpoint, schema: {type: string}}
            deployExecutions:
            - name: main
              type: GoTemplate
              template: |
                deployItems:
                - {name: server, type: landscaper.gardener.cloud/mock, target: {import: host}, config: {endpoint: "{{ .imports.endpoint }}"}}
      imports:
        targets: [{name: host, target: workload}]
        data: [{name: endpoint, dataRef: workloadEndpoint}]
    EOT
  } }
  subinstallation_exports = %s
}`, exports)
}

// Stand-in exports of one subinstallation render the sibling that imports
// them (landscaper-cli's `blueprints render -e`); the stood-in one is not
// rendered (its template would fail); a path that is no
// subinstallation and a malformed value are errors on the attribute.
func TestAccRenderedInstallationDataSource_subinstallationExports(t *testing.T) {
	ds := "data.landscaper_rendered_installation.svc"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: standInTreeConfig(`{ "svc/cluster" = {
    data    = { endpoint = "api.example" }
    targets = { created = { metadata = { name = "x" }, spec = { type = "landscaper.gardener.cloud/kubernetes-cluster", config = { kubeconfig = "unused" } } } }
  } }`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("deploy_items"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{
							"installation": knownvalue.StringExact("svc/server"),
							"name":         knownvalue.StringExact("server"),
							"target":       knownvalue.StringExact("host"),
							"config":       knownvalue.StringExact(`{"endpoint":"api.example"}`),
						}),
					})),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("subinstallations_pending"), knownvalue.ListSizeExact(0)),
				},
			},
			{
				Config: standInTreeConfig(`{
    "svc/cluster" = { data = { endpoint = "e" }, targets = { created = "{\"spec\":{\"type\":\"landscaper.gardener.cloud/kubernetes-cluster\",\"config\":{\"kubeconfig\":\"unused\"}}}" } }
    "svc/nosuch"  = { data = {} }
  }`),
				ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*svc/nosuch`),
			},
			{
				Config:      standInTreeConfig(`{ "svc/cluster" = { exports = {} } }`),
				ExpectError: regexp.MustCompile(`(?s)Invalid Subinstallation Exports.*"svc/cluster": unknown key "exports"`),
			},
			{
				Config:      standInTreeConfig(`{ "svc/cluster" = { targets = { created = "not a target" } } }`),
				ExpectError: regexp.MustCompile(`(?s)Invalid Subinstallation Exports.*"svc/cluster": target "created": not a Target object`),
			},
		},
	})
}
