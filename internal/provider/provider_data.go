package provider

import (
	"context"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// testPoolOptions are added to the options of every pool Configure builds;
// tests count the requests of whole Terraform commands with them
// (target.WithWrapTransport). Nil outside tests.
var testPoolOptions []target.Option

func newProviderData(version string, host hostSettings, registry *component.Registry, sec securitySettings, tune tuning) *providerData {
	opts := append(tune.poolOptions(), target.WithUntrustedCredentials(sec.allowUntrustedCredentials),
		target.WithProviderKubeconfigs(sec.targetKubeconfigs))
	pool := target.NewPool(append(opts, testPoolOptions...)...)
	deployers := deployer.NewRegistry()
	deployers.Register(manifest.Type, manifest.New(pool))
	hostCluster := &hostCluster{settings: host}
	components := &componentAccess{registry: registry, host: hostCluster}
	deployers.Register(helm.Type, helm.New(pool).WithResources(components))
	deployers.Register(mock.Type, mockWithoutDrift{mock.New()})
	security := newSecurity(pool, sec)
	components.learn = security.secrets.Add
	return &providerData{
		version:    version,
		host:       hostCluster,
		engine:     &engine.Engine{Deployers: deployers, Log: tflogLogger{}, Clusters: pool, Parallelism: tune.parallelism},
		components: components,
		security:   security,
		pool:       pool,
	}
}

// mockWithoutDrift serves mock deploy items. The mock deploys nothing
// outside this process, and every Terraform command is a new process, so
// there is nothing whose drift could be checked.
type mockWithoutDrift struct{ *mock.Deployer }

func (mockWithoutDrift) Drift(context.Context, deployer.Item) (deployer.DriftReport, error) {
	return deployer.DriftReport{}, nil
}
