package datasources

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// RegistryUser gives a data source the provider's registry: embedded, it
// implements datasource.DataSourceWithConfigure.
type RegistryUser struct{ Data *shared.ProviderData }

func (u *RegistryUser) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	u.Data = shared.ProviderDataFrom(req.ProviderData, &resp.Diagnostics)
}

var (
	_ datasource.DataSourceWithConfigure = (*blueprintDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*RenderedInstallationDataSource)(nil)
)
