// Package provider is the Terraform face of the engine: the provider's
// schema and configuration, and the table of its resources, data sources,
// actions and functions. Each Terraform type lives in a package of its own
// below it (installation, targetresource, datasources, reconcile,
// functions), and what they all need in package shared. Only these
// packages import terraform-plugin-framework; everything they do beyond
// translating between Terraform values and Go values is delegated to the
// engine.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/datasources"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/functions"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/installation"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/reconcile"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/targetresource"
)

var (
	_ provider.Provider                  = (*landscaperProvider)(nil)
	_ provider.ProviderWithFunctions     = (*landscaperProvider)(nil)
	_ provider.ProviderWithListResources = (*landscaperProvider)(nil)
)

type landscaperProvider struct {
	version string
}

// New returns a constructor of the provider, as providerserver.Serve wants.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &landscaperProvider{version: version} }
}

func (p *landscaperProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "landscaper"
	resp.Version = p.version
}

// Resources lists every resource type of the provider.
func (p *landscaperProvider) Resources(_ context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		targetresource.NewTargetResource,
		installation.NewInstallationResource,
	}
}

// ListResources lists the list resources (`terraform query`, Terraform >= 1.14).
func (p *landscaperProvider) ListResources(_ context.Context) []func() list.ListResource {
	return []func() list.ListResource{installation.NewInstallationList}
}

// DataSources lists every data source type of the provider.
func (p *landscaperProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{datasources.NewBlueprintDataSource, datasources.NewRenderedInstallationDataSource, datasources.NewManifestsDataSource}
}

// Functions lists the provider-defined functions (Terraform >= 1.8, OpenTofu >= 1.7).
func (p *landscaperProvider) Functions(_ context.Context) []func() function.Function {
	return []func() function.Function{functions.NewDecodeTargetFunction}
}

// Actions lists the provider's actions (Terraform >= 1.14; OpenTofu has none).
func (p *landscaperProvider) Actions(_ context.Context) []func() action.Action {
	return []func() action.Action{reconcile.NewReconcileAction}
}
