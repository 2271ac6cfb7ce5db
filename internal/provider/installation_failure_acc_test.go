package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func (e *accEnv) deploymentInstallation(schedulable bool) string {
	return e.pathInstallation("web", blueprintDir(e.t, "deployment"), fmt.Sprintf("schedulable = %t", schedulable))
}

// deploymentAvailable checks the Deployment's ready replicas in the cluster.
func (e *accEnv) deploymentAvailable(name string, replicas int32) func(*terraform.State) error {
	return func(*terraform.State) error {
		d, err := e.kube.AppsV1().Deployments(e.namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if d.Status.AvailableReplicas != replicas {
			return fmt.Errorf("deployment %s has %d available replicas, want %d", name, d.Status.AvailableReplicas, replicas)
		}
		return nil
	}
}

// A Deployment that never becomes ready fails the apply when its deploy
// item times out, naming the item; the state keeps what was deployed, and
// the fixed configuration then converges in place.
func TestAccInstallation_failingReadinessThenFixed(t *testing.T) {
	e := newAccEnv(t)
	inst := "landscaper_installation.web"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(*terraform.State) error {
			_, err := e.kube.AppsV1().Deployments(e.namespace).Get(context.Background(), "web", metav1.GetOptions{})
			if err == nil {
				return fmt.Errorf("deployment web still exists after destroy")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:      e.deploymentInstallation(false),
				ExpectError: regexp.MustCompile(`(?s)Installation Failed.*Failed deploy items:.*deploy item .*web/web\s+\(Failed\)`),
			},
			{
				// The failed create was recorded (tainted): nothing is orphaned.
				Config:             e.deploymentInstallation(false),
				PlanOnly:           true,
				RefreshState:       false,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: e.deploymentInstallation(true),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
					resource.TestCheckResourceAttr(inst, "deploy_items.%", "1"),
					resource.TestCheckResourceAttr(inst, "deploy_item_errors.%", "0"),
					e.deploymentAvailable("web", 2),
				),
			},
		},
	})
}

// The Terraform timeout bounds the whole job: the apply fails with the
// items that were running marked as timed out, and destroy still removes
// what was recorded.
func TestAccInstallation_timeout(t *testing.T) {
	e := newAccEnv(t)
	blueprint := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: quick, type: landscaper.gardener.cloud/mock, config: {phase: Succeeded}}
    - {name: slow, type: landscaper.gardener.cloud/mock, dependsOn: [quick], config: {delay: 1m}}
`
	config := fmt.Sprintf(`
resource "landscaper_installation" "slow" {
  name      = "slow"
  namespace = %q
  blueprint = { inline = { "blueprint.yaml" = %q } }
  timeouts  = { create = "2s" }
}
`, e.namespace, blueprint)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:      config,
			ExpectError: regexp.MustCompile(`(?s)Installation Failed.*slow`),
		}},
	})
}
