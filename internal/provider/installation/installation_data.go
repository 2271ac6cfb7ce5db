package installation

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// InstallationData is the provider's data as landscaper_installation and
// its list resource use it: the jobs, previews, imports and migrations of
// one installation are its methods.
type InstallationData struct{ *shared.ProviderData }

// installationDataFrom unpacks the value Configure stored; nil before
// Configure ran.
func installationDataFrom(v any, diags *diag.Diagnostics) *InstallationData {
	d := shared.ProviderDataFrom(v, diags)
	if d == nil {
		return nil
	}
	return &InstallationData{d}
}
