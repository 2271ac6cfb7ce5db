package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// literalTargetHCL is a Target object JSON in HCL; rendering never
// contacts the cluster it names.
const literalTargetHCL = `jsonencode({
  apiVersion = "landscaper.gardener.cloud/v1alpha1"
  kind       = "Target"
  metadata   = { name = "cluster" }
  spec       = { type = "landscaper.gardener.cloud/kubernetes-cluster", config = { kubeconfig = "unused" } }
})`

// renderedTreeConfig renders testdata/rendered-installation with the given
// data imports and importDataMappings.
func renderedTreeConfig(t *testing.T, data, mappings string) string {
	return fmt.Sprintf(`
data "landscaper_rendered_installation" "app" {
  name      = "app"
  blueprint = { path = %q }
  imports = {
    targets = { cluster = %s }
    data    = %s
  }
  import_data_mappings = %s
}`, blueprintDir(t, "rendered-installation"), literalTargetHCL, data, mappings)
}

func renderedItem(installation, name string, dependsOn ...string) knownvalue.Check {
	deps := make([]knownvalue.Check, 0, len(dependsOn))
	for _, d := range dependsOn {
		deps = append(deps, knownvalue.StringExact(d))
	}
	return knownvalue.ObjectExact(map[string]knownvalue.Check{
		"installation": knownvalue.StringExact(installation),
		"name":         knownvalue.StringExact(name),
		"type":         knownvalue.StringExact("landscaper.gardener.cloud/kubernetes-manifest"),
		"target":       knownvalue.StringExact("cluster"),
		"depends_on":   knownvalue.ListExact(deps),
		"config_hash":  knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{32}$`)),
		// The rendered ProviderConfiguration of a manifest deploy item.
		"config": knownvalue.StringRegexp(regexp.MustCompile(`^\{.*"kind":"ProviderConfiguration".*"manifests":\[`)),
	})
}

// The whole tree renders without a cluster: the root's items (an import
// provided only by import_data_mappings), the producer subinstallation's
// item, and the consumer listed as pending because it needs the producer's
// export. Changing an import changes exactly the hashes of the items it
// configures.
func TestAccRenderedInstallationDataSource_tree(t *testing.T) {
	ds := "data.landscaper_rendered_installation.app"
	appHash := statecheck.CompareValue(compare.ValuesDiffer())
	sourceHash := statecheck.CompareValue(compare.ValuesSame())
	mappings := `{ doubled = "(( replicas * 2 ))" }`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: renderedTreeConfig(t, `{ replicas = 3 }`, mappings),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("deploy_items"), knownvalue.ListExact([]knownvalue.Check{
						renderedItem("app", "app", "settings"),
						renderedItem("app", "settings"),
						renderedItem("app/producer", "source"),
					})),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("subinstallations_pending"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"installation": knownvalue.StringExact("app/consumer"),
							"reason":       knownvalue.StringRegexp(regexp.MustCompile(`exports of subinstallation "producer"`)),
						}),
					})),
					statecheck.ExpectKnownValue(ds, tfjsonpath.New("warnings"), knownvalue.ListSizeExact(0)),
					appHash.AddStateValue(ds, tfjsonpath.New("deploy_items").AtSliceIndex(0).AtMapKey("config_hash")),
					sourceHash.AddStateValue(ds, tfjsonpath.New("deploy_items").AtSliceIndex(2).AtMapKey("config_hash")),
				},
			},
			{
				Config: renderedTreeConfig(t, `{ replicas = 4 }`, mappings),
				ConfigStateChecks: []statecheck.StateCheck{
					appHash.AddStateValue(ds, tfjsonpath.New("deploy_items").AtSliceIndex(0).AtMapKey("config_hash")),
					sourceHash.AddStateValue(ds, tfjsonpath.New("deploy_items").AtSliceIndex(2).AtMapKey("config_hash")),
				},
			},
		},
	})
}

// Wrong imports, mappings and templates are errors on the attribute to fix;
// the message names the import or mapping.
func TestAccRenderedInstallationDataSource_invalid(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				// Without the mapping the required import "doubled" is missing.
				Config:      renderedTreeConfig(t, `{ replicas = 3 }`, "null"),
				ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*imports = \{.*doubled`),
			},
			{
				Config:      renderedTreeConfig(t, `{ replicas = 3 }`, `{ doubled = "(( nothing * 2 ))" }`),
				ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*import_data_mappings = .*importDataMappings`),
			},
			{
				Config:      renderedTreeConfig(t, `{ replicas = "three", doubled = 6 }`, "null"),
				ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*imports = \{.*replicas`),
			},
			{
				Config: fmt.Sprintf(`
data "landscaper_rendered_installation" "app" {
  name      = "app"
  blueprint = { path = %q }
  imports   = { targets = { cluster = "not a target" }, data = { replicas = 1 } }
}`, blueprintDir(t, "rendered-installation")),
				ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*not a Target object`),
			},
			{
				Config: `
data "landscaper_rendered_installation" "app" {
  name      = "app"
  blueprint = { inline = { "blueprint.yaml" = <<-EOT
    apiVersion: landscaper.gardener.cloud/v1alpha1
    kind: Blueprint
    deployExecutions:
    - name: main
      type: GoTemplate
      template: |
        deployItems:
        - name: a
          type: landscaper.gardener.cloud/mock
          dependsOn: [missing]
          config: {}
    EOT
  } }
}`,
				ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*blueprint = \{ inline.*missing`),
			},
		},
	})
}

// What the data source renders is what landscaper_installation deploys:
// the items the applied resource's deploy_items lists by path (checked
// against the local cluster); config_hash differs, as the resource's is
// keyed.
func TestAccRenderedInstallationDataSource_matchesInstallation(t *testing.T) {
	e := newAccEnv(t)
	inputs := fmt.Sprintf(`
  name      = "cm"
  namespace = %[1]q
  blueprint = { path = %[2]q }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[1]q, values = { a = "1" }, withDerived = true }
  }`, e.namespace, blueprintDir(t, "configmaps"))
	config := e.targetHCL + `
resource "landscaper_installation" "cm" {` + inputs + `
}

data "landscaper_rendered_installation" "cm" {` + inputs + `
}`
	checks := []statecheck.StateCheck{statecheck.ExpectKnownValue("landscaper_installation.cm",
		tfjsonpath.New("deploy_items"), knownvalue.MapSizeExact(2))}
	for i, name := range []string{"derived", "settings"} { // the data source's order: by installation and name
		item := tfjsonpath.New("deploy_items").AtSliceIndex(i)
		checks = append(checks,
			statecheck.ExpectKnownValue("data.landscaper_rendered_installation.cm", item.AtMapKey("installation"),
				knownvalue.StringExact(e.namespace+".cm")),
			statecheck.ExpectKnownValue("data.landscaper_rendered_installation.cm", item.AtMapKey("name"), knownvalue.StringExact(name)),
			// The resource keys its hash per installation; the data source's
			// is the bare hash (sensitive), so the two differ.
			statecheck.CompareValuePairs("data.landscaper_rendered_installation.cm", item.AtMapKey("config_hash"),
				"landscaper_installation.cm", tfjsonpath.New("deploy_items").AtMapKey(e.namespace+".cm/"+name), compare.ValuesDiffer()))
	}
	checks = append(checks, statecheck.ExpectSensitiveValue("data.landscaper_rendered_installation.cm",
		tfjsonpath.New("deploy_items").AtSliceIndex(0).AtMapKey("config_hash")))
	checks = append(checks, statecheck.ExpectKnownValue("data.landscaper_rendered_installation.cm",
		tfjsonpath.New("deploy_items"), knownvalue.ListSizeExact(2)))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("settings", "derived"),
		Steps:                    []resource.TestStep{{Config: config, ConfigStateChecks: checks}},
	})
}
