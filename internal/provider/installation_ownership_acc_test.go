package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// deploymentReplaced is deploymentInstallation retried by replacement with
// create_before_destroy, the zero-downtime retry of a failed create.
func (e *accEnv) deploymentReplaced(schedulable bool) string {
	return strings.Replace(e.deploymentInstallation(schedulable), "  blueprint = {",
		"  lifecycle { create_before_destroy = true }\n  blueprint = {", 1)
}

// deploymentInstance checks that the Deployment carries an instance label,
// different from *seen when changed, and remembers it in *seen.
func (e *accEnv) deploymentInstance(name string, seen *string, changed bool) func(*terraform.State) error {
	return func(*terraform.State) error {
		d, err := e.kube.AppsV1().Deployments(e.namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("deployment %s: %w", name, err)
		}
		got := d.Labels[deployer.InstanceLabel]
		switch {
		case got == "":
			return fmt.Errorf("deployment %s has no %s label", name, deployer.InstanceLabel)
		case changed && got == *seen:
			return fmt.Errorf("deployment %s still carries the old instance %s", name, got)
		}
		*seen = got
		return nil
	}
}

// A failed (tainted) create retried with create_before_destroy: the new
// instance adopts the objects, and destroying the deposed old instance
// afterwards must leave them alone. Before instances were recorded, both
// instances owned the same labels and the destroy of the deposed one
// deleted the Deployment the new one had just made ready.
func TestAccInstallation_createBeforeDestroyKeepsNewInstance(t *testing.T) {
	e := newAccEnv(t)
	inst := "landscaper_installation.web"
	var instance string
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(*terraform.State) error {
			if _, err := e.kube.AppsV1().Deployments(e.namespace).Get(context.Background(), "web", metav1.GetOptions{}); err == nil {
				return fmt.Errorf("deployment web still exists after destroy")
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config:      e.deploymentReplaced(false),
				ExpectError: regexp.MustCompile(`(?s)Installation Failed.*web`),
			},
			{
				// The failed create left the Deployment; note its instance.
				PreConfig: func() {
					if err := e.deploymentInstance("web", &instance, false)(nil); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.deploymentReplaced(true),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
					e.deploymentAvailable("web", 2),
					e.deploymentInstance("web", &instance, true),
				),
			},
			{Config: e.deploymentReplaced(true), PlanOnly: true},
		},
	})
}
