package installation

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

var _ resource.ResourceWithValidateConfig = (*InstallationResource)(nil)

// ValidateConfig checks that blueprint and component_descriptor each name
// exactly one source, or that a manifest stands alone and translates. Everything that needs the blueprint itself is
// checked by ModifyPlan.
func (r *InstallationResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m shared.InstallationModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !m.Manifest.IsNull() {
		shared.ValidateManifestForm(ctx, m, &resp.Diagnostics)
		return
	}
	if !m.ManifestObjects.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("manifest_objects"), "Invalid Attribute Combination",
			"manifest_objects holds the objects a manifest refers to; set manifest too, or remove manifest_objects")
	}
	shared.CheckSources(m.Blueprint, m.ComponentDescriptor, &resp.Diagnostics)
}
