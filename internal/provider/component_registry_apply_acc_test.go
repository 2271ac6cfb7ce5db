package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// A component version in a registry with basic auth is installed: the
// blueprint is a local blob of it, one chart a local blob two references
// away, the other an OCI artifact, the import schema a blob two
// references away. A tag moved to other content plans an update. With the
// registry unreachable, the plan is answered from the cache and is empty.
func TestAccInstallation_componentFromRegistry(t *testing.T) {
	e := newAccEnv(t)
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: "s3cret"})
	proxy := startProxy(t, reg.Host())
	l := &ociLandscape{t: t, host: proxy.Host(), push: componenttest.Remote("ci", "s3cret")}
	l.pushAll("first")
	config := providerRegistryHCL(t.TempDir(), proxy.Host(), "ci", "s3cret") + e.componentInstallationHCL(l, "1.0.0", "blueprint", "")
	inst := "landscaper_installation.app"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("lib-chart", "app-chart"),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
					resource.TestCheckResourceAttr(inst, "deploy_items.#", "2"),
					e.configMapData("lib-chart", map[string]string{"greeting": "hello", "component": "example.com/app"}),
					e.configMapData("app-chart", map[string]string{"greeting": "hello", "component": "example.com/app"}),
				),
			},
			{
				// The tag 1.0.0 of example.com/app now points at other content.
				PreConfig: func() { l.pushAll("second") },
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate),
				}},
			},
			{
				// The registry is gone; everything the plan needs is cached.
				PreConfig: proxy.Stop,
				Config:    config,
				PlanOnly:  true,
			},
		},
	})
}

// componentInstallationHCL installs a component version's blueprint
// resource; extraData are further `imports.data` entries in HCL.
func (e *accEnv) componentInstallationHCL(l *ociLandscape, version, blueprintResource, extraData string) string {
	return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "app" {
  name      = "app"
  namespace = %[1]q
  component_descriptor = {
    ref = {
      repository_context = { type = "ociRegistry", base_url = %[2]q }
      component_name     = "example.com/app"
      version            = %[3]q
    }
  }
  blueprint = { ref = { resource_name = %[4]q } }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[1]q, settings = { greeting = "hello" }%[5]s }
  }
}
`, e.namespace, l.host+"/landscape", version, blueprintResource, extraData)
}
