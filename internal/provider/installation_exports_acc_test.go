package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// Exports named in sensitive_exports leave `exports` and are returned only
// in the sensitive sensitive_export_values; export_data_mappings apply
// before the split.
func TestAccInstallation_sensitiveExports(t *testing.T) {
	blueprint := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
exports:
- {name: user, schema: {type: string}}
- {name: password, schema: {type: string}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: db
      type: landscaper.gardener.cloud/mock
      config: {export: {user: admin, password: s3cret}}
exportExecutions:
- name: exports
  type: GoTemplate
  template: |
    exports:
      user: {{ .values.deployitems.db.user }}
      password: {{ .values.deployitems.db.password }}
`
	inst := "landscaper_installation.db"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
resource "landscaper_installation" "db" {
  name                 = "db"
  blueprint            = { inline = { "blueprint.yaml" = %q } }
  sensitive_exports    = ["password"]
  export_data_mappings = { user = "(( \"db-\" exports.user ))", password = "(( password ))" }
}
output "user" { value = landscaper_installation.db.exports.user }
`, blueprint),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(inst, tfjsonpath.New("exports"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"user": knownvalue.StringExact("db-admin"),
				})),
				statecheck.ExpectKnownValue(inst, tfjsonpath.New("sensitive_export_values"), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"password": knownvalue.StringExact("s3cret"),
				})),
				statecheck.ExpectSensitiveValue(inst, tfjsonpath.New("sensitive_export_values")),
			},
		}},
	})
}
