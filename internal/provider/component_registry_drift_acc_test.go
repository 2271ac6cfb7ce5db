package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// Helm items in manifest mode whose charts are component resources
// (chart.resourceRef): refresh renders the charts again to compare, so it
// must read them from the registry (or the cache). A ConfigMap deleted out
// of band shows as drift in the next plan, and apply puts it back.
func TestAccInstallation_componentChartManifestDrift(t *testing.T) {
	e := newAccEnv(t)
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: "s3cret"})
	l := &ociLandscape{t: t, host: reg.Host(), push: componenttest.Remote("ci", "s3cret")}
	l.pushAll("only")
	config := providerRegistryHCL(t.TempDir(), reg.Host(), "ci", "s3cret") +
		e.componentInstallationHCL(l, "1.0.0", "blueprint", ", helmDeployment = false")
	inst := "landscaper_installation.app"
	deleteConfigMap := func() {
		if err := e.kube.CoreV1().ConfigMaps(e.namespace).Delete(context.Background(), "lib-chart", metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("lib-chart", "app-chart"),
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
					e.configMapData("lib-chart", map[string]string{"greeting": "hello", "component": "example.com/app"}),
				),
			},
			{
				PreConfig: deleteConfigMap,
				Config:    config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(inst, tfjsonpath.New("phase"), knownvalue.StringExact("Succeeded")),
				}},
				Check: e.configMapData("lib-chart", map[string]string{"greeting": "hello", "component": "example.com/app"}),
			},
		},
	})
}
