package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var _ resource.ResourceWithValidateConfig = (*installationResource)(nil)

// ValidateConfig checks that blueprint and component_descriptor each name
// exactly one source, or that a manifest stands alone and translates. Everything that needs the blueprint itself is
// checked by ModifyPlan.
func (r *installationResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m installationModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !m.Manifest.IsNull() {
		validateManifestForm(ctx, m, &resp.Diagnostics)
		return
	}
	if !m.ManifestObjects.IsNull() {
		resp.Diagnostics.AddAttributeError(path.Root("manifest_objects"), "Invalid Attribute Combination",
			"manifest_objects holds the objects a manifest refers to; set manifest too, or remove manifest_objects")
	}
	checkOneOf(m.Blueprint, path.Root("blueprint"), true, []string{"path", "inline", "ref"}, &resp.Diagnostics)
	checkOneOf(m.ComponentDescriptor, path.Root("component_descriptor"), false, componentSourceNames, &resp.Diagnostics)
}

// checkOneOf reports unless exactly one of names is set in o (unknown
// values count as set). A null o is fine unless required. Data sources
// share it for the same attributes.
func checkOneOf(o types.Object, p path.Path, required bool, names []string, diags *diag.Diagnostics) {
	if o.IsUnknown() || (o.IsNull() && !required) {
		return
	}
	attrs := o.Attributes()
	var set []string
	for _, n := range names {
		if v, ok := attrs[n]; ok && !isNull(v) {
			set = append(set, n)
		}
	}
	if len(set) != 1 {
		diags.AddAttributeError(p, "Invalid Attribute Combination",
			fmt.Sprintf("exactly one of %s must be set, got %d (%s)", strings.Join(names, ", "), len(set), strings.Join(set, ", ")))
	}
}

func isNull(v attr.Value) bool { return v == nil || v.IsNull() }
