package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// A chart laid out as public charts are installs as Helm installs it —
// its .helmignore leaves crds/kustomization.yaml out, its CRD comes first
// and its custom resource after — and the plan after the apply is empty
// (resource.Test plans again after every step, refresh and drift check
// included): zero values the API server leaves out, quantities written as
// numbers and a Secret's stringData are no drift. Before, the apply
// failed on the kustomization ("failed to install CRD"), and a chart that
// installed was reported drifted at hostNetwork on every plan.
func TestAccInstallation_helmChartAsPublishedPlansEmptyAfterApply(t *testing.T) {
	e := newAccEnv(t)
	t.Cleanup(func() {
		// crds/ stay after an uninstall, as Helm leaves them.
		dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
		if err == nil {
			crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
			_ = dyn.Resource(crds).Delete(context.Background(), "widgets.published.charts.example.com", metav1.DeleteOptions{})
		}
	})
	config := e.pathInstallation("chart", blueprintDir(t, "helm-chart-as-published"), "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: config,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("landscaper_installation.chart", "deploy_item_errors.%", "0"),
					func(*terraform.State) error {
						_, err := e.kube.AppsV1().Deployments(e.namespace).Get(context.Background(), "published", metav1.GetOptions{})
						return err
					},
				),
			},
			{Config: config, PlanOnly: true},
		},
	})
}
