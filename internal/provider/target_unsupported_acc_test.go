package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// A Target with oidcConfig or selfConfig fails the plan, naming the
// import, the reason and the alternative, in both forms.
func TestAccInstallation_oidcAndSelfTargetsRefused(t *testing.T) {
	bp := clusterBlueprint("", "[]", "")
	hclForm := func(config string) string {
		return fmt.Sprintf(`
provider "landscaper" {}

resource "landscaper_installation" "app" {
  name      = "app"
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports = { targets = { cluster = jsonencode({
    apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "Target", metadata = { name = "ls" }
    spec = { type = "landscaper.gardener.cloud/kubernetes-cluster", config = %s }
  }) } }
}
`, bp, config)
	}
	manifestForm := fmt.Sprintf(`
provider "landscaper" {}

resource "landscaper_installation" "app" {
  name = "app"
  manifest = yamlencode({
    apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "Installation", metadata = { name = "app" }
    spec = {
      blueprint = { inline = { filesystem = { "blueprint.yaml" = %q } } }
      imports   = { targets = [{ name = "cluster", target = "ls" }] }
    }
  })
  manifest_objects = yamlencode({
    apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "Target", metadata = { name = "ls" }
    spec = { type = "landscaper.gardener.cloud/kubernetes-cluster", config = { selfConfig = { serviceAccount = { name = "sa" } } } }
  })
}
`, bp)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config:      hclForm(`{ oidcConfig = { server = "https://api.example", serviceAccount = { name = "sa" }, audience = ["x"] } }`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`target\s+"ls":\s+config\.oidcConfig\s+is\s+not\s+supported[\s\S]*kubeconfig_from_provider`),
			},
			{
				Config:      manifestForm,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`config\.selfConfig\s+is\s+not\s+supported[\s\S]*kubeconfig_from_provider`),
			},
		},
	})
}
