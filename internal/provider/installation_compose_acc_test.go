package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// One installation's data and target exports feed another's imports;
// Terraform's graph orders them.
func TestAccInstallation_composition(t *testing.T) {
	e := newAccEnv(t)
	config := e.configMapsInstallation(`{ a = "1", b = "2", c = "3" }`, false) + fmt.Sprintf(`
resource "landscaper_installation" "consumer" {
  name      = "consumer"
  namespace = %[1]q
  blueprint = { path = %[2]q }
  imports = {
    targets = { cluster = landscaper_installation.cm.target_exports["cluster"] }
    data    = { namespace = %[1]q, upstreamKeys = landscaper_installation.cm.exports.keys }
  }
}
`, e.namespace, blueprintDir(t, "composition"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("settings", "consumer"),
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("landscaper_installation.consumer", "exports.doubled", "6"),
				e.configMapData("consumer", map[string]string{"upstreamKeys": "3"}),
			),
		}},
	})
}

// A blueprint with subinstallations: the consumer subinstallation imports
// what the producer exported, and the root exports what the consumer did.
func TestAccInstallation_subinstallations(t *testing.T) {
	e := newAccEnv(t)
	inst := "landscaper_installation.tree"
	config := e.pathInstallation("tree", blueprintDir(t, "subinstallations"), "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("source", "copy"),
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr(inst, "exports.copied", "forty-two"),
				resource.TestCheckResourceAttr(inst, "deploy_items.%", "2"),
				resource.TestCheckResourceAttrSet(inst, fmt.Sprintf("deploy_items.%s.tree/consumer/copy", e.namespace)),
				resource.TestCheckResourceAttrSet(inst, fmt.Sprintf("deploy_items.%s.tree/producer/source", e.namespace)),
				e.configMapData("source", map[string]string{"value": "forty-two"}),
				e.configMapData("copy", map[string]string{"value": "forty-two"}),
			),
		}},
	})
}
