package shared

import (
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The `blueprint` and `component_descriptor` inputs are the same for the
// installation resource and the data sources. The framework has separate
// schema types for resources and data sources, so each input is built
// twice here, from the same descriptions.
const (
	blueprintDescription         = "Where the blueprint comes from: exactly one of `path`, `inline` or `ref`."
	blueprintPathDescription     = "Directory holding `blueprint.yaml` and the files its templates read."
	blueprintInlineDescription   = "The blueprint's files by path, e.g. `{ \"blueprint.yaml\" = file(...) }`."
	blueprintRefDescription      = "A blueprint resource of `component_descriptor`."
	blueprintResourceDescription = "Name of the resource of type `blueprint` (or `landscaper.gardener.cloud/blueprint`)."

	componentDescriptorDescription = "The component descriptor templates see as `cd` and that `blueprint.ref` resolves " +
		"against: exactly one of `path`, `inline` or `ref`."
	componentPathDescription   = "A local component archive: a directory with `component-descriptor.yaml` and `blobs/`."
	componentInlineDescription = "The component descriptor as YAML or JSON (schema `v2` or `ocm.software/v3alpha1`)."
)

// blueprintSourceResourceAttribute is the installation's `blueprint`:
// optional there, because `manifest` may replace it.
func blueprintSourceResourceAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: blueprintDescription + " Required unless `manifest` is set.",
		Attributes: map[string]rschema.Attribute{
			"path":   rschema.StringAttribute{Optional: true, MarkdownDescription: blueprintPathDescription},
			"inline": rschema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: blueprintInlineDescription},
			"ref": rschema.SingleNestedAttribute{Optional: true, MarkdownDescription: blueprintRefDescription,
				Attributes: map[string]rschema.Attribute{
					"resource_name": rschema.StringAttribute{Required: true, MarkdownDescription: blueprintResourceDescription},
				}},
		}}
}

// BlueprintSourceDataAttribute is the data sources' `blueprint`.
func BlueprintSourceDataAttribute() dschema.SingleNestedAttribute {
	return dschema.SingleNestedAttribute{Required: true, MarkdownDescription: blueprintDescription,
		Attributes: map[string]dschema.Attribute{
			"path":   dschema.StringAttribute{Optional: true, MarkdownDescription: blueprintPathDescription},
			"inline": dschema.MapAttribute{Optional: true, ElementType: types.StringType, MarkdownDescription: blueprintInlineDescription},
			"ref": dschema.SingleNestedAttribute{Optional: true, MarkdownDescription: blueprintRefDescription,
				Attributes: map[string]dschema.Attribute{
					"resource_name": dschema.StringAttribute{Required: true, MarkdownDescription: blueprintResourceDescription},
				}},
		}}
}

// componentSourceResourceAttribute is the installation's `component_descriptor`.
func componentSourceResourceAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true, MarkdownDescription: componentDescriptorDescription,
		Attributes: map[string]rschema.Attribute{
			"path":   rschema.StringAttribute{Optional: true, MarkdownDescription: componentPathDescription},
			"inline": rschema.StringAttribute{Optional: true, MarkdownDescription: componentInlineDescription},
			"ref":    componentRefResourceAttribute(),
		}}
}

// ComponentSourceDataAttribute is the data sources' `component_descriptor`.
func ComponentSourceDataAttribute() dschema.SingleNestedAttribute {
	return dschema.SingleNestedAttribute{Optional: true, MarkdownDescription: componentDescriptorDescription,
		Attributes: map[string]dschema.Attribute{
			"path":   dschema.StringAttribute{Optional: true, MarkdownDescription: componentPathDescription},
			"inline": dschema.StringAttribute{Optional: true, MarkdownDescription: componentInlineDescription},
			"ref":    componentRefDataAttribute(),
		}}
}
