package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
)

// registryUser gives a data source the provider's registry: embedded, it
// implements datasource.DataSourceWithConfigure.
type registryUser struct{ data *providerData }

func (u *registryUser) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	u.data = providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

var (
	_ datasource.DataSourceWithConfigure = (*blueprintDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*renderedInstallationDataSource)(nil)
)
