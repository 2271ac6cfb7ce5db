package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// Wrong credentials, a missing component version, a missing resource, a
// reference whose digest does not match the referenced descriptor and a
// resource digest mismatch each fail the plan naming the component version
// (and the resource or reference). Reading the component comes first, so these plans need
// no cluster and no imports.
func TestAccInstallation_componentRegistryErrors(t *testing.T) {
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: "s3cret"})
	l := &ociLandscape{t: t, host: reg.Host(), push: componenttest.Remote("ci", "s3cret")}
	l.pushAll("only")
	cache := t.TempDir()
	good := providerRegistryHCL(cache, reg.Host(), "ci", "s3cret")
	installation := func(version, blueprint string) string {
		return fmt.Sprintf(`
resource "landscaper_installation" "app" {
  name = "app"
  component_descriptor = {
    ref = {
      repository_context = { type = "ociRegistry", base_url = %q }
      component_name     = "example.com/app"
      version            = %q
    }
  }
  blueprint = { ref = { resource_name = %q } }
}
`, l.host+"/landscape", version, blueprint)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config:      providerRegistryHCL(cache, reg.Host(), "ci", "wrong") + installation("1.0.0", "blueprint"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`component\s+example\.com/app:1\.0\.0[\s\S]*access\s+denied`),
			},
			{
				Config:      good + installation("9.9.9", "blueprint"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`component\s+example\.com/app:9\.9\.9[\s\S]*not\s+found`),
			},
			{
				Config:      good + installation("1.0.0", "nope"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`component\s+example\.com/app:1\.0\.0\s+has\s+no\s+resource\s+matching\s+map\[name:nope\]`),
			},
			{
				Config:      good + installation("1.0.0-tampered", "blueprint"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`component\s+example\.com/app:1\.0\.0-tampered\s+reference\s+"leaf"\s+\(example\.com/leaf:1\.0\.0\):\s+digest\s+mismatch`),
			},
			{
				Config:      good + installation("1.0.0", "tampered-blueprint"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`component\s+example\.com/app:1\.0\.0\s+resource\s+"tampered-blueprint":\s+digest\s+mismatch`),
			},
		},
	})
}

// The landscape renders without a cluster from the registry: the
// blueprint of app, the schema two references away validating the
// settings, both charts keyed by getResourceKey. With the registry
// unreachable the same render is answered from the cache; with an empty
// cache it fails naming the component version.
func TestAccRenderedInstallation_componentFromRegistryOffline(t *testing.T) {
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: "s3cret"})
	proxy := startProxy(t, reg.Host())
	l := &ociLandscape{t: t, host: proxy.Host(), push: componenttest.Remote("ci", "s3cret")}
	l.pushAll("only")
	cache := t.TempDir()
	rendered := func(cacheDir, greeting string) string {
		return providerRegistryHCL(cacheDir, proxy.Host(), "ci", "s3cret") + fmt.Sprintf(`
data "landscaper_rendered_installation" "app" {
  name = "app"
  component_descriptor = {
    ref = {
      repository_context = { type = "ociRegistry", base_url = %q }
      component_name     = "example.com/app"
      version            = "1.0.0"
    }
  }
  blueprint = { ref = { resource_name = "blueprint" } }
  imports = {
    targets = { cluster = %s }
    data    = { namespace = "default", settings = { greeting = %s } }
  }
}
`, l.host+"/landscape", literalTargetHCL, greeting)
	}
	ds := "data.landscaper_rendered_installation.app"
	items := statecheck.ExpectKnownValue(ds, tfjsonpath.New("deploy_items"), knownvalue.ListPartial(map[int]knownvalue.Check{
		0: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("app-chart"),
			"config": knownvalue.StringRegexp(regexp.MustCompile(`"resourceRef":"[A-Za-z0-9+/=]+"`))}),
		1: knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("lib-chart"),
			"type": knownvalue.StringExact("landscaper.gardener.cloud/helm")}),
	}))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{Config: rendered(cache, `"hello"`), ConfigStateChecks: []statecheck.StateCheck{items}},
			{
				// The schema from lib (two references away) rejects a number.
				Config:      rendered(cache, `42`),
				ExpectError: regexp.MustCompile(`greeting`),
			},
			{PreConfig: proxy.Stop, Config: rendered(cache, `"hello"`), ConfigStateChecks: []statecheck.StateCheck{items}},
			{
				Config:      rendered(t.TempDir(), `"hello"`),
				ExpectError: regexp.MustCompile(`component\s+example\.com/app:1\.0\.0[\s\S]*connection\s+refused`),
			},
		},
	})
}
