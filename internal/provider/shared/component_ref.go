package shared

import (
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// ComponentSourceNames are the ways to give a component descriptor;
// exactly one is set.
var ComponentSourceNames = []string{"path", "inline", "ref"}

// componentRefModel is `component_descriptor.ref`, Landscaper's
// ComponentDescriptorReference.
type componentRefModel struct {
	RepositoryContext types.Object `tfsdk:"repository_context"`
	ComponentName     types.String `tfsdk:"component_name"`
	Version           types.String `tfsdk:"version"`
}

type repositoryContextModel struct {
	Type                 types.String `tfsdk:"type"`
	BaseURL              types.String `tfsdk:"base_url"`
	ComponentNameMapping types.String `tfsdk:"component_name_mapping"`
}

const (
	componentRefDescription = "A component version in an OCI registry (Landscaper's `componentDescriptor.ref`). " +
		"It is read with every component it references, transitively; blueprints, charts and blobs of their resources " +
		"are read from the registry too. Descriptors in schema `v2` and `ocm.software/v3alpha1` are read; " +
		"templates see `cd` in schema v2, as in Landscaper."
	repositoryContextDescription = "Where the component version is stored."
	typeDescription              = "`ociRegistry` (or OCM's `OCIRegistry`)."
	baseURLDescription           = "Registry host and base path, e.g. `ghcr.io/acme/components`."
	mappingDescription           = "`urlPath` (default: `<base_url>/component-descriptors/<component_name>:<version>`) " +
		"or `sha256-digest` (`<base_url>/<sha256 of component_name>:<version>`)."
)

func componentRefResourceAttribute() rschema.SingleNestedAttribute {
	return rschema.SingleNestedAttribute{Optional: true, MarkdownDescription: componentRefDescription,
		Attributes: map[string]rschema.Attribute{
			"repository_context": rschema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: repositoryContextDescription + " Required unless the installation's `context` has a `repositoryContext`.",
				Attributes: map[string]rschema.Attribute{
					"type":                   rschema.StringAttribute{Required: true, MarkdownDescription: typeDescription},
					"base_url":               rschema.StringAttribute{Required: true, MarkdownDescription: baseURLDescription},
					"component_name_mapping": rschema.StringAttribute{Optional: true, MarkdownDescription: mappingDescription},
				}},
			"component_name": rschema.StringAttribute{Required: true, MarkdownDescription: "Name of the component, e.g. `github.com/acme/app`."},
			"version":        rschema.StringAttribute{Required: true, MarkdownDescription: "Version of the component."},
		}}
}

func componentRefDataAttribute() dschema.SingleNestedAttribute {
	return dschema.SingleNestedAttribute{Optional: true, MarkdownDescription: componentRefDescription,
		Attributes: map[string]dschema.Attribute{
			"repository_context": dschema.SingleNestedAttribute{Required: true, MarkdownDescription: repositoryContextDescription,
				Attributes: map[string]dschema.Attribute{
					"type":                   dschema.StringAttribute{Required: true, MarkdownDescription: typeDescription},
					"base_url":               dschema.StringAttribute{Required: true, MarkdownDescription: baseURLDescription},
					"component_name_mapping": dschema.StringAttribute{Optional: true, MarkdownDescription: mappingDescription},
				}},
			"component_name": dschema.StringAttribute{Required: true, MarkdownDescription: "Name of the component, e.g. `github.com/acme/app`."},
			"version":        dschema.StringAttribute{Required: true, MarkdownDescription: "Version of the component."},
		}}
}
