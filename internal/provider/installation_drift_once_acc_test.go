package provider

import (
	"context"
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// onceInstallation deploys the ConfigMap "once" from an updateOnChangeOnly
// deploy item.
func (e *accEnv) onceInstallation() string {
	return inlineInstallation(e.targetHCL, "once", e.namespace, manifestItem("once", "updateOnChangeOnly: true",
		fmt.Sprintf("{apiVersion: v1, kind: ConfigMap, metadata: {name: once, namespace: %s}, data: {a: b}}", e.namespace)))
}

// An updateOnChangeOnly item whose object was deleted out of band shows as
// drift, and the apply repairs it although its configuration did not
// change (issue 10 item 8; before, it stayed drifted forever).
func TestAccInstallation_updateOnChangeOnlyDriftRepaired(t *testing.T) {
	e := newAccEnv(t)
	inst := "landscaper_installation.once"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("once"),
		Steps: []resource.TestStep{
			{Config: e.onceInstallation(), Check: e.configMapData("once", map[string]string{"a": "b"})},
			{
				PreConfig: func() {
					if err := e.kube.CoreV1().ConfigMaps(e.namespace).Delete(context.Background(), "once", metav1.DeleteOptions{}); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.onceInstallation(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate),
				}},
				Check: e.configMapData("once", map[string]string{"a": "b"}),
			},
			{Config: e.onceInstallation(), PlanOnly: true},
		},
	})
}
