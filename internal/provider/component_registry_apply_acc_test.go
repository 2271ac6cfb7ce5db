package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// A component version in a registry with basic auth is installed: the
// blueprint is a local blob of it, one chart a local blob two references
// away, the other an OCI artifact, the import schema a blob two
// references away. The state records the digest of each component
// version. A tag moved to other content plans an update showing the new
// digest. With the registry unreachable, the plan takes the digests in
// state and the cached content, and is empty, even though the tag moved
// once more meanwhile (and the cache's last answer for the tag says so).
func TestAccInstallation_componentFromRegistry(t *testing.T) {
	e := newAccEnv(t)
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: "s3cret"})
	proxy := startProxy(t, reg.Host())
	l := &ociLandscape{t: t, host: proxy.Host(), push: componenttest.Remote("ci", "s3cret")}
	l.pushAll("first")
	config := providerRegistryHCL(t.TempDir(), proxy.Host(), "ci", "s3cret") + e.componentInstallationHCL(l, "1.0.0", "blueprint", "")
	inst := "landscaper_installation.app"
	var applied string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("lib-chart", "app-chart"),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
					resource.TestCheckResourceAttr(inst, "deploy_items.%", "2"),
					resource.TestCheckResourceAttr(inst, "deploy_item_errors.%", "0"),
					resource.TestCheckResourceAttr(inst, "component_digests.%", "3"),
					func(*terraform.State) error { applied = l.appDigest; return nil },
					resource.TestCheckResourceAttrPtr(inst, "component_digests.example.com/app:1.0.0", &applied),
					resource.TestMatchResourceAttr(inst, "component_digests.example.com/lib:1.0.0", regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)),
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
					plannedAppDigest{address: inst, want: &l.appDigest},
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					func(*terraform.State) error { applied = l.appDigest; return nil },
					resource.TestCheckResourceAttrPtr(inst, "component_digests.example.com/app:1.0.0", &applied),
				),
			},
			{
				// It moves again; a plan sees that (and the cache notes it).
				PreConfig:          func() { l.pushAll("third") },
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				// The registry is gone: the digests in state and the cache answer.
				PreConfig: proxy.Stop,
				Config:    config,
				PlanOnly:  true,
			},
		},
	})
}

// plannedAppDigest checks the digest the plan shows for example.com/app:1.0.0.
type plannedAppDigest struct {
	address string
	want    *string
}

func (c plannedAppDigest) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != c.address {
			continue
		}
		after, _ := rc.Change.After.(map[string]any)
		digests, _ := after["component_digests"].(map[string]any)
		if got := digests["example.com/app:1.0.0"]; got != *c.want {
			resp.Error = fmt.Errorf("planned component_digests[example.com/app:1.0.0] = %v, want %s", got, *c.want)
		}
		return
	}
	resp.Error = fmt.Errorf("%s is not in the plan", c.address)
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
