package provider

import (
	"context"
	"fmt"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
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

// instances runs installation instances' jobs with progress logged to
// this request's tflog.
func (d *providerData) instances(ctx context.Context) instance.Runner {
	return instance.Runner{Engine: d.engine, Pool: d.pool, Log: tflogLogger{ctx: ctx}}
}

// providerTargets are Targets of the provider block's kubeconfigs, allowed
// in the pool, one per target_kubeconfigs entry.
func (d *providerData) providerTargets() []api.Target {
	if d == nil || d.pool == nil {
		return nil
	}
	var out []api.Target
	for _, name := range d.pool.ProviderKubeconfigNames() {
		t := api.NewTarget(name, "", api.KubernetesClusterTargetType, nil)
		t.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: uuid.NewString()}
		d.pool.AllowProviderKubeconfig(t)
		out = append(out, t)
	}
	return out
}
