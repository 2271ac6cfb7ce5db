package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// config_hash is keyed per installation: a short password in the
// configuration cannot be found by hashing guesses. Two installations with
// the same configuration show different hashes, neither is the bare hash,
// a create plans it as known after apply, and an update plans the new
// value (the key is read from private state); the empty plan after each
// step shows the keyed hash is stable.
func TestAccInstallation_configHashKeyed(t *testing.T) {
	blueprint := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: password, schema: {type: string}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: db
      type: landscaper.gardener.cloud/mock
      config: {password: {{ .imports.password }}}
`
	config := func(password string) string {
		return fmt.Sprintf(`
resource "landscaper_installation" "a" {
  name      = "a"
  blueprint = { inline = { "blueprint.yaml" = %[1]q } }
  imports   = { data = { password = %[2]q } }
}
resource "landscaper_installation" "b" {
  name      = "b"
  blueprint = { inline = { "blueprint.yaml" = %[1]q } }
  imports   = { data = { password = %[2]q } }
}
`, blueprint, password)
	}
	hashPath := tfjsonpath.New("deploy_items").AtMapKey("a/db")
	hashPathB := tfjsonpath.New("deploy_items").AtMapKey("b/db")
	hex128 := regexp.MustCompile(`^[0-9a-f]{32}$`)
	notBare := func(password string) knownvalue.Check {
		bare := snapshot.Hash(map[string]any{"password": password})
		return knownvalue.StringFunc(func(v string) error {
			if !hex128.MatchString(v) {
				return fmt.Errorf("config_hash %q is not 128 bits in hex", v)
			}
			if v == bare {
				return fmt.Errorf("config_hash %q is the bare hash of the configuration", v)
			}
			return nil
		})
	}
	changes := statecheck.CompareValue(compare.ValuesDiffer())
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: config("hunter2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectUnknownValue("landscaper_installation.a", hashPath),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("landscaper_installation.a", hashPath, notBare("hunter2")),
					statecheck.ExpectKnownValue("landscaper_installation.b", hashPathB, notBare("hunter2")),
					statecheck.CompareValuePairs("landscaper_installation.a", hashPath,
						"landscaper_installation.b", hashPathB, compare.ValuesDiffer()),
					changes.AddStateValue("landscaper_installation.a", hashPath),
				},
			},
			{
				Config: config("hunter3"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue("landscaper_installation.a", hashPath, notBare("hunter3")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue("landscaper_installation.a", hashPath, notBare("hunter3")),
					changes.AddStateValue("landscaper_installation.a", hashPath),
				},
			},
		},
	})
}
