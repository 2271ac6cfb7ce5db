package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// An update that fails outside the deploy items (here: Completing, whose
// export violates its schema) leaves phase Failed; the next plan with the
// same configuration must not be empty, so the next apply retries.
func TestAccInstallation_failedCompletingIsRetried(t *testing.T) {
	blueprint := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: value, schema: {}}
exports:
- {name: count, schema: {type: integer}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: item, type: landscaper.gardener.cloud/mock, config: {phase: Succeeded}}
exportExecutions:
- name: exports
  type: GoTemplate
  template: |
    exports:
      count: {{ .imports.value | toJson }}
`
	config := func(value string) string {
		return fmt.Sprintf(`
resource "landscaper_installation" "retry" {
  name      = "retry"
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { data = { value = %s } }
}
`, blueprint, value)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{Config: config("1")},
			{Config: config(`"not a number"`), ExpectError: regexp.MustCompile(`(?s)count`)},
			{Config: config(`"not a number"`), PlanOnly: true, ExpectNonEmptyPlan: true},
			{Config: config("2")},
		},
	})
}
