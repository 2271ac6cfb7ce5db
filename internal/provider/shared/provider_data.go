package shared

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// TestPoolOptions are added to the options of every pool Configure builds;
// tests count the requests of whole Terraform commands with them
// (target.WithWrapTransport). Nil outside tests.
var TestPoolOptions []target.Option

func NewProviderData(version string, host hostaccess.HostSettings, registry *component.Registry, sec SecuritySettings, tune Tuning) *ProviderData {
	opts := append(tune.poolOptions(), target.WithUntrustedCredentials(sec.AllowUntrustedCredentials),
		target.WithProviderKubeconfigs(sec.TargetKubeconfigs))
	pool := target.NewPool(append(opts, TestPoolOptions...)...)
	deployers := deployer.NewRegistry()
	deployers.Register(manifest.Type, manifest.New(pool))
	hostCluster := &hostaccess.HostCluster{Settings: host}
	components := &hostaccess.ComponentAccess{Registry: registry, Host: hostCluster}
	deployers.Register(helm.Type, helm.New(pool).WithResources(components).WithRenderLimits(sec.Limits.Sandbox()).WithStorage(sec.HelmStorage))
	deployers.Register(mock.Type, mockWithoutDrift{mock.New()})
	security := newSecurity(pool, sec)
	security.Secrets.Add(sec.HelmStorage.Secrets()...)
	components.Learn = security.Secrets.Add
	return &ProviderData{
		version: version,
		Host:    hostCluster,
		// Credentials the cluster functions mint are masked like any other.
		Engine: &engine.Engine{Deployers: deployers, Log: tflogLogger{sec: security}, Parallelism: tune.parallelism,
			Clusters: template.LearningClusters{ClusterAccess: pool, Learn: security.Secrets.Add}},
		components: components,
		Security:   security,
		Pool:       pool,
	}
}

// mockWithoutDrift serves mock deploy items. The mock deploys nothing
// outside this process, and every Terraform command is a new process, so
// there is nothing whose drift could be checked.
type mockWithoutDrift struct{ *mock.Deployer }

func (mockWithoutDrift) Drift(context.Context, deployer.Item) (deployer.DriftReport, error) {
	return deployer.DriftReport{}, nil
}

// ProviderData is what Configure hands to every resource and data source:
// one per provider instance, i.e. per Terraform command, so the clients
// built here are shared by all installations of one apply.
type ProviderData struct {
	version string
	Host    *hostaccess.HostCluster
	Engine  *engine.Engine
	// components reads component versions and their resources from OCI
	// registries, with the provider's credentials and cache.
	components *hostaccess.ComponentAccess
	// security holds the trusted kubeconfigs, the secrets to scrub and
	// the render limits (provider_security.go).
	Security *Security
	// pool has the clients of every target cluster (also the inventory's).
	Pool *target.Pool
	// PlanDiff is the provider's default plan_diff ("" for local).
	PlanDiff string
}

// EngineOrNil is the engine, nil before Configure ran.
func (d *ProviderData) EngineOrNil() *engine.Engine {
	if d == nil {
		return nil
	}
	return d.Engine
}

// ProviderDataFrom unpacks the value Configure stored; nil before Configure ran.
func ProviderDataFrom(v any, diags *diag.Diagnostics) *ProviderData {
	if v == nil {
		return nil
	}
	d, ok := v.(*ProviderData)
	if !ok {
		AddError(diags, nil, "Unexpected Provider Data", fmt.Errorf("expected *providerData, got %T; please report this bug", v))
		return nil
	}
	return d
}

// Instances runs installation instances' jobs with progress logged to
// this request's tflog.
func (d *ProviderData) Instances(ctx context.Context) instance.Runner {
	// Every job seals in the inventory what holds a secret (exit.go).
	return instance.Runner{Engine: d.Engine, Pool: d.Pool, Log: tflogLogger{ctx: ctx, sec: d.Security},
		HoldsSecret: d.Security.ConfigHoldsSecret}
}

// ProviderTargets are Targets of the provider block's kubeconfigs, allowed
// in the pool, one per target_kubeconfigs entry.
func (d *ProviderData) ProviderTargets() []api.Target {
	if d == nil || d.Pool == nil {
		return nil
	}
	var out []api.Target
	for _, name := range d.Pool.ProviderKubeconfigNames() {
		t := api.NewTarget(name, "", api.KubernetesClusterTargetType, nil)
		t.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: uuid.NewString()}
		d.Pool.AllowProviderKubeconfig(t)
		out = append(out, t)
	}
	return out
}

// InstancesIn is instances with the charts of ref's Context.
func (d *ProviderData) InstancesIn(ctx context.Context, ref hostaccess.ContextRef) instance.Runner {
	r := d.Instances(ctx)
	e := *r.Engine
	charts := hostaccess.ChartAccess{ComponentAccess: d.components, Ref: ref}
	e.Deployers = e.Deployers.UsingCharts(charts) // the deployers that read charts (deployer.ChartUser)
	r.Engine = &e
	return r
}
