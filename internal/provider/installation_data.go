package provider

import "github.com/hashicorp/terraform-plugin-framework/diag"

// installationData is the provider's data as landscaper_installation and
// its list resource use it: the jobs, previews, imports and migrations of
// one installation are its methods.
type installationData struct{ *providerData }

// installationDataFrom unpacks the value Configure stored; nil before
// Configure ran.
func installationDataFrom(v any, diags *diag.Diagnostics) *installationData {
	d := providerDataFrom(v, diags)
	if d == nil {
		return nil
	}
	return &installationData{d}
}
