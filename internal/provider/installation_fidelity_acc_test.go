package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
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
