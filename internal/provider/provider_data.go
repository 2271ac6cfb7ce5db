package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// providerData is what Configure hands to every resource and data source:
// one per provider instance, i.e. per Terraform command, so the clients
// built here are shared by all installations of one apply.
type providerData struct {
	version string
	host    *hostCluster
	engine  *engine.Engine
	// components reads component versions and their resources from OCI
	// registries, with the provider's credentials and cache.
	components *componentAccess
	// security holds the trusted kubeconfigs, the secrets to scrub and
	// the render limits (provider_security.go).
	security *security
	// pool has the clients of every target cluster (also the inventory's).
	pool *target.Pool
	// planDiff is the provider's default plan_diff ("" for local).
	planDiff string
}

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
	deployers.Register(helm.Type, helm.New(pool).WithResources(components).WithRenderLimits(sec.limits.Sandbox()))
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

// engineOrNil is the engine, nil before Configure ran.
func (d *providerData) engineOrNil() *engine.Engine {
	if d == nil {
		return nil
	}
	return d.engine
}

// providerDataFrom unpacks the value Configure stored; nil before Configure ran.
func providerDataFrom(v any, diags *diag.Diagnostics) *providerData {
	if v == nil {
		return nil
	}
	d, ok := v.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data", fmt.Sprintf("expected *providerData, got %T; please report this bug", v))
		return nil
	}
	return d
}
