package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// A target built from the local cluster's kubeconfig reaches its API
// server, and can be imported by name.
func TestAccTarget_kubeconfigReachesCluster(t *testing.T) {
	kubeconfigPath := localcluster.KubeconfigPath(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: fmt.Sprintf(`
resource "landscaper_target" "cluster" {
  name       = "cluster"
  kubeconfig = file(%q)
}`, kubeconfigPath),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("landscaper_target.cluster", "id", "cluster"),
					resource.TestCheckResourceAttr("landscaper_target.cluster", "type", api.KubernetesClusterTargetType),
					checkTargetReachesAPIServer("landscaper_target.cluster"),
				),
			},
			{
				ResourceName:                         "landscaper_target.cluster",
				ImportState:                          true,
				ImportStateId:                        "cluster",
				ImportStateVerify:                    true,
				ImportStateVerifyIdentifierAttribute: "name",
				ImportStateVerifyIgnore:              []string{"kubeconfig", "target"},
			},
		},
	})
}

// Any other target type carries its config through unchanged, in canonical JSON.
func TestAccTarget_customConfig(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: `
resource "landscaper_target" "vault" {
  name   = "vault"
  type   = "example.com/vault"
  config = jsonencode({ address = "https://vault.example", token = "s3cr3t" })
}`,
			Check: resource.TestCheckResourceAttr("landscaper_target.vault", "target",
				`{"apiVersion":"landscaper.gardener.cloud/v1alpha1","kind":"Target","metadata":{"name":"vault"},`+
					`"spec":{"type":"example.com/vault","config":{"address":"https://vault.example","token":"s3cr3t"}}}`),
		}},
	})
}

// Malformed credentials are rejected at plan time, naming the attribute.
func TestAccTarget_invalidConfigRejectedAtPlan(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{
				Config: `resource "landscaper_target" "bad" {
  name       = "bad"
  kubeconfig = "clusters: ["
}`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Target Configuration.*kubeconfig is not a valid kubeconfig`),
			},
			{
				Config: `resource "landscaper_target" "bad" {
  name   = "bad"
  config = "{not json"
}`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`config must be a JSON document`),
			},
			{
				Config: `resource "landscaper_target" "bad" {
  name = "bad"
  kubeconfig = "apiVersion: v1\nkind: Config"
  config = "{}"
}`,
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination`),
			},
		},
	})
}

// checkTargetReachesAPIServer decodes the target attribute and asks the
// API server for its version with the kubeconfig inside.
func checkTargetReachesAPIServer(name string) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[name]
		if !ok {
			return fmt.Errorf("%s not in state", name)
		}
		var target api.Target
		if err := json.Unmarshal([]byte(rs.Primary.Attributes["target"]), &target); err != nil {
			return fmt.Errorf("target attribute is not a Target object: %w", err)
		}
		if target.Kind != api.TargetKind || target.Metadata.Name != "cluster" {
			return fmt.Errorf("unexpected target object %s/%s", target.Kind, target.Metadata.Name)
		}
		var cfg api.KubernetesClusterConfig
		if err := json.Unmarshal(target.Spec.Config, &cfg); err != nil {
			return err
		}
		rc, err := clientcmd.RESTConfigFromKubeConfig([]byte(cfg.Kubeconfig))
		if err != nil {
			return err
		}
		dc, err := discovery.NewDiscoveryClientForConfig(rc)
		if err != nil {
			return err
		}
		v, err := dc.ServerVersion()
		if err != nil {
			return fmt.Errorf("target does not reach the API server: %w", err)
		}
		if v.Major == "" {
			return fmt.Errorf("API server reported no version")
		}
		return nil
	}
}
