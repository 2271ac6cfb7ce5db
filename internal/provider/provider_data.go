package provider

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// providerData is what Configure hands to every resource and data source:
// one per provider instance, i.e. per Terraform command, so clients built
// here are shared by all installations of one apply.
type providerData struct {
	version string
	host    *hostCluster
}

func newProviderData(version string, host hostSettings) *providerData {
	return &providerData{version: version, host: &hostCluster{settings: host}}
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
