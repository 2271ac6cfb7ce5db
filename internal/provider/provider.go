// Package provider is the Terraform face of the engine: provider
// configuration, resources, data sources and functions. It is the only
// package that imports terraform-plugin-framework.
package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var _ provider.Provider = (*landscaperProvider)(nil)

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

func (p *landscaperProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{}
}

func (p *landscaperProvider) Configure(_ context.Context, _ provider.ConfigureRequest, _ *provider.ConfigureResponse) {
}

func (p *landscaperProvider) Resources(_ context.Context) []func() resource.Resource { return nil }

func (p *landscaperProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	return nil
}
