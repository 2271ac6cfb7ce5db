package provider

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// The refresh of several installations on one cluster, in one Terraform
// command, shares the provider's clients: discovery is read once per
// command, not per installation, and each installation's drift check is
// one LIST of its ConfigMaps (its ApplySet's members) — no read by name —
// and one GET of its inventory Secret (the outcome of a
// landscaper_reconcile job, installation_reconciled.go).
func TestAccInstallation_refreshRequestsPerInstallation(t *testing.T) {
	e := newAccEnv(t)
	log := &deployertest.RequestLog{}
	shared.TestPoolOptions = []target.Option{target.WithWrapTransport(log.Wrap)}
	t.Cleanup(func() { shared.TestPoolOptions = nil })
	const installations, items = 4, 3
	config := e.targetHCL
	for i := range installations {
		var list string
		for j := range items {
			list += manifestItem(fmt.Sprintf("cm-%d", j), "",
				fmt.Sprintf("{apiVersion: v1, kind: ConfigMap, metadata: {name: refresh-%d-%d, namespace: %s}, data: {a: b}}", i, j, e.namespace))
		}
		config += strings.TrimPrefix(inlineInstallation("", fmt.Sprintf("refresh-%d", i), e.namespace, list), "\n")
	}
	listPath := "/api/v1/namespaces/" + e.namespace + "/configmaps?"
	inventoryPath := regexp.MustCompile(`^/api/v1/namespaces/[^/]+/secrets/landscaper-inventory-`)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{
			{Config: config},
			{PreConfig: func() { log.Take() }, Config: config, PlanOnly: true},
			{
				PreConfig: func() {
					var lists, discovery, inventories int
					var other []string
					for _, req := range log.Take() {
						r := req.String()
						switch path := strings.TrimPrefix(r, "GET "); {
						case strings.HasPrefix(path, listPath):
							lists++
						case inventoryPath.MatchString(path):
							inventories++
						case path == "/api" || path == "/apis" || strings.HasPrefix(path, "/api?") || strings.HasPrefix(path, "/apis?"):
							discovery++
						default:
							other = append(other, r)
						}
					}
					t.Logf("refresh step: %d LISTs, %d discovery requests, %d others", lists, discovery, len(other))
					// A plan-only step may plan more than once; each
					// refresh lists every installation's ConfigMaps once.
					if lists == 0 || lists%installations != 0 {
						t.Errorf("%d LISTs of ConfigMaps, want one per installation per refresh (%d installations)", lists, installations)
					}
					if refreshes := lists / installations; discovery > 2*refreshes {
						t.Errorf("%d discovery requests in %d refreshes of %d installations: discovery is read per installation, not per command",
							discovery, refreshes, installations)
					}
					if inventories != lists {
						t.Errorf("%d GETs of inventory Secrets in %d LISTs, want one per installation per refresh", inventories, lists)
					}
					if len(other) > 0 {
						t.Errorf("requests beyond one LIST and one inventory GET per installation and discovery: %q", other)
					}
				},
				Config: config, PlanOnly: true,
			},
		},
	})
}
