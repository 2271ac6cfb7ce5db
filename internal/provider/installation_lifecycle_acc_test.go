package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// configMapsInstallation is the HCL of an installation of testdata/configmaps.
func (e *accEnv) configMapsInstallation(values string, withDerived bool) string {
	return e.pathInstallation("cm", blueprintDir(e.t, "configmaps"), fmt.Sprintf("values = %s, withDerived = %t", values, withDerived))
}

// Create deploys every item in order and exports; an update changes the
// cluster; dropping an item from the blueprint deletes what it deployed;
// a re-plan is empty after each step; destroy removes everything.
func TestAccInstallation_lifecycle(t *testing.T) {
	e := newAccEnv(t)
	inst := "landscaper_installation.cm"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("settings", "derived"),
		Steps: []resource.TestStep{
			{
				Config: e.configMapsInstallation(`{ a = "1" }`, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					// The plan lists the deploy items before anything is applied
					// (their config_hash is known after apply: no key yet).
					plancheck.ExpectUnknownValue(inst, tfjsonpath.New("deploy_items").AtMapKey(e.namespace+".cm/derived")),
					plancheck.ExpectUnknownValue(inst, tfjsonpath.New("deploy_items").AtMapKey(e.namespace+".cm/settings")),
					plancheck.ExpectKnownValue(inst, tfjsonpath.New("deploy_item_errors"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(inst, tfjsonpath.New("phase"), knownvalue.StringExact("Succeeded")),
					statecheck.ExpectKnownValue(inst, tfjsonpath.New("exports"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"keys": knownvalue.Int64Exact(1), "derivedName": knownvalue.StringExact("derived"),
					})),
					statecheck.ExpectKnownValue(inst, tfjsonpath.New("deploy_items"), knownvalue.MapSizeExact(2)),
					statecheck.ExpectKnownValue(inst, tfjsonpath.New("deploy_item_errors"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttrPair(inst, "job_id", inst, "job_id_finished"),
					resource.TestCheckResourceAttrSet(inst, "target_exports.cluster"),
					e.configMapData("settings", map[string]string{"a": "1"}),
					e.configMapData("derived", map[string]string{"count": "1"}),
				),
			},
			{
				Config: e.configMapsInstallation(`{ a = "2", b = "3" }`, true),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "exports.keys", "2"),
					e.configMapData("settings", map[string]string{"a": "2", "b": "3"}),
					e.configMapData("derived", map[string]string{"count": "2"}),
				),
			},
			{
				// The item "derived" is no longer rendered: it is an orphan and deleted.
				Config: e.configMapsInstallation(`{ a = "2", b = "3" }`, false),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "deploy_items.%", "1"),
					resource.TestCheckResourceAttr(inst, "exports.derivedName", "none"),
					e.configMapsGone("derived"),
					e.configMapData("settings", map[string]string{"a": "2", "b": "3"}),
				),
			},
		},
	})
}

// An object deleted out of band shows up as drift: refresh records it in
// deploy_item_errors, the plan (an in-place update) clears it, and the
// apply puts the object back.
func TestAccInstallation_driftRepaired(t *testing.T) {
	e := newAccEnv(t)
	inst := "landscaper_installation.cm"
	config := e.configMapsInstallation(`{ a = "1" }`, true)
	settings := "deploy_item_errors." + e.namespace + ".cm/settings"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("settings", "derived"),
		Steps: []resource.TestStep{
			{Config: config, Check: e.configMapData("settings", map[string]string{"a": "1"})},
			{
				PreConfig: func() {
					err := e.kube.CoreV1().ConfigMaps(e.namespace).Delete(context.Background(), "settings", metav1.DeleteOptions{})
					if err != nil {
						t.Fatalf("deleting ConfigMap out of band: %v", err)
					}
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "deploy_item_errors.%", "1"),
					resource.TestMatchResourceAttr(inst, settings, regexp.MustCompile(`^Drifted: .*settings`)),
				),
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(inst, tfjsonpath.New("deploy_item_errors"), knownvalue.MapExact(map[string]knownvalue.Check{})),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					e.configMapData("settings", map[string]string{"a": "1"}),
					resource.TestCheckResourceAttr(inst, "deploy_item_errors.%", "0"),
				),
			},
			{
				// Drift of a changed value is repaired too.
				PreConfig: func() {
					cm, err := e.kube.CoreV1().ConfigMaps(e.namespace).Get(context.Background(), "derived", metav1.GetOptions{})
					if err != nil {
						t.Fatal(err)
					}
					cm.Data["count"] = "tampered"
					if _, err := e.kube.CoreV1().ConfigMaps(e.namespace).Update(context.Background(), cm, metav1.UpdateOptions{}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate),
				}},
				Check: e.configMapData("derived", map[string]string{"count": "1"}),
			},
		},
	})
}

// Invalid blueprints, imports and cycles are rejected at plan time,
// before anything is deployed, naming what is wrong.
func TestAccInstallation_invalidRejectedAtPlan(t *testing.T) {
	e := newAccEnv(t)
	inline := func(blueprint, data string) string {
		return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "bad" {
  name      = "bad"
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { targets = { cluster = landscaper_target.cluster.target }, data = %s }
}
`, blueprint, data)
	}
	cycle := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: a, type: landscaper.gardener.cloud/mock, dependsOn: [c]}
    - {name: b, type: landscaper.gardener.cloud/mock, dependsOn: [a]}
    - {name: c, type: landscaper.gardener.cloud/mock, dependsOn: [b]}
`
	schema := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: replicas
  schema: {type: integer, minimum: 1}
`
	template := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: broken
  type: GoTemplate
  template: |
    deployItems: {{ .imports.nothing | fail }}
`
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{Config: inline(cycle, "{}"), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*cycle: a -> c -> b -> a`)},
			{Config: inline(schema, `{ replicas = 0 }`), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*replicas`)},
			{Config: inline(schema, `{}`), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*replicas`)},
			{Config: inline(template, `{}`), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*broken`)},
			{Config: inline("kind: [", `{}`), PlanOnly: true, ExpectError: regexp.MustCompile(`(?s)Invalid Installation.*blueprint.yaml`)},
		},
	})
}
