package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testgate"
)

// A Landscaper guided-tour flow through the CLI: a target map import whose
// elements subinstallations import as clusters[<key>], subinstallation
// exports passed back up, and a root export execution that reads the
// root's own import from .dataobjects. The ConfigMaps really exist.
func TestAccInstallation_guidedTourTargetMap(t *testing.T) {
	e := newAccEnv(t)
	inst := "landscaper_installation.colors"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("color-blue", "color-red"),
		Steps: []resource.TestStep{{
			Config: e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "colors" {
  name      = "colors"
  namespace = %[1]q
  blueprint = { path = %[2]q }
  imports = {
    target_maps = { clusters = { blue = landscaper_target.cluster.target, red = landscaper_target.cluster.target } }
    data        = { namespace = %[1]q }
  }
}
`, e.namespace, blueprintDir(t, "fidelity-target-map")),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(inst, tfjsonpath.New("phase"), knownvalue.StringExact("Succeeded")),
				statecheck.ExpectKnownValue(inst, tfjsonpath.New("exports"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"namespace": knownvalue.StringExact(e.namespace),
					"configmaps": knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("color-blue"), knownvalue.StringExact("color-red"),
					}),
				})),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				e.configMapData("color-blue", map[string]string{"color": "blue"}),
				e.configMapData("color-red", map[string]string{"color": "red"}),
			),
		}},
	})
}

// Landscaper's guided tour "subinstallations/export-import" through the
// CLI: the second subinstallation imports the first one's export, so it
// is planned as pending and rendered during apply; the root's export
// execution reads the root's own import and both exports. The ConfigMaps
// really exist.
func TestAccInstallation_guidedTourExportImport(t *testing.T) {
	e := newAccEnv(t)
	inst := "landscaper_installation.shop"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("shop-1", "shop-1-2"),
		Steps: []resource.TestStep{{
			Config: e.pathInstallation("shop", blueprintDir(t, "fidelity-export-import"), `configmap-name-base = "shop"`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(inst, tfjsonpath.New("phase"), knownvalue.StringExact("Succeeded")),
				statecheck.ExpectKnownValue(inst, tfjsonpath.New("exports"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"configmap-names": knownvalue.ListExact([]knownvalue.Check{
						knownvalue.StringExact("shop"), knownvalue.StringExact("shop-1"), knownvalue.StringExact("shop-1-2"),
					}),
				})),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				e.configMapData("shop-1", map[string]string{"base": "shop"}),
				e.configMapData("shop-1-2", map[string]string{"base": "shop-1"}),
			),
		}},
	})
}

// Blueprint checks Landscaper makes, through the CLI at plan: an export
// schema's `$ref` fragment without a leading slash is a warning naming the
// export, and a secretRef data import in an inline subinstallation is an
// error naming blueprint.yaml and the field.
func TestAccInstallation_fidelityDiagnosticsAtPlan(t *testing.T) {
	testgate.Require(t, "a Terraform or OpenTofu CLI")
	for _, c := range []struct {
		name, blueprint string
		want            []string
	}{
		{"export schema fragment warns", `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
exports:
- name: endpoint
  schema:
    type: object
    properties: {port: {$ref: "#definitions/port"}}
    definitions: {port: {type: integer}}
deployExecutions:
- type: GoTemplate
  template: |
    deployItems:
    - {name: app, type: landscaper.gardener.cloud/mock, config: {}}
`, []string{"Warning: Blueprint Warning", `app: export "endpoint":`, `"#definitions/port" is not a JSON pointer fragment`}},
		{"secretRef in an inline subinstallation fails", `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
subinstallations:
- name: db
  blueprint: {filesystem: {blueprint.yaml: "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n"}}
  imports:
    data:
    - {name: password, secretRef: {name: db, key: password}}
`, []string{"Error: Invalid Installation",
			"blueprint.yaml: subinstallations[0]: imports.data[0].secretRef: secret references are not allowed in an installation template"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newCLIWorkspace(t, fmt.Sprintf(`
resource "landscaper_installation" "app" {
  name      = "app"
  blueprint = { inline = { "blueprint.yaml" = %q } }
}
`, c.blueprint))
			out, _ := w.run("plan", "-no-color")
			for _, want := range c.want {
				if !wrapped(want).MatchString(out) {
					t.Errorf("plan output does not say %q:\n%s", want, out)
				}
			}
		})
	}
}
