package datasources

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

var _ datasource.DataSourceWithValidateConfig = (*RenderedInstallationDataSource)(nil)

// NewRenderedInstallationDataSource returns the
// landscaper_rendered_installation data source: the deploy items a
// blueprint renders for given imports, computed by the engine's pure
// Render exactly as landscaper_installation plans them, without a cluster.
func NewRenderedInstallationDataSource() datasource.DataSource {
	return &RenderedInstallationDataSource{}
}

type RenderedInstallationDataSource struct{ RegistryUser }

type renderedInstallationModel struct {
	Name                    types.String  `tfsdk:"name"`
	Namespace               types.String  `tfsdk:"namespace"`
	Blueprint               types.Object  `tfsdk:"blueprint"`
	ComponentDescriptor     types.Object  `tfsdk:"component_descriptor"`
	Imports                 types.Object  `tfsdk:"imports"`
	ImportDataMappings      types.Dynamic `tfsdk:"import_data_mappings"`
	SubinstallationExports  types.Dynamic `tfsdk:"subinstallation_exports"`
	DeployItems             types.List    `tfsdk:"deploy_items"`
	SubinstallationsPending types.List    `tfsdk:"subinstallations_pending"`
	Warnings                types.List    `tfsdk:"warnings"`
	DeployItemObjects       types.String  `tfsdk:"deploy_item_objects"`
	Mermaid                 types.String  `tfsdk:"mermaid"`
	DOT                     types.String  `tfsdk:"dot"`
}

var (
	renderedItemAttrTypes = map[string]attr.Type{
		"installation": types.StringType,
		"name":         types.StringType,
		"type":         types.StringType,
		"target":       types.StringType,
		"depends_on":   types.ListType{ElemType: types.StringType},
		"config_hash":  types.StringType,
		"config":       types.StringType,
	}
	pendingInstallationAttrTypes = map[string]attr.Type{
		"installation": types.StringType,
		"reason":       types.StringType,
	}
)

func (d *RenderedInstallationDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_rendered_installation"
}

func (d *RenderedInstallationDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Renders a blueprint and its subinstallations for the given imports, without a cluster and " +
			"without deploying anything: the deploy items `landscaper_installation` would deploy, with the same " +
			"`installation` and `name`. Template, import and dependency errors are errors on the attribute to fix.",
		Attributes: map[string]schema.Attribute{
			"name": schema.StringAttribute{Required: true,
				MarkdownDescription: "Name of the installation, as in `landscaper_installation`; it prefixes the `installation` paths."},
			"namespace": schema.StringAttribute{Optional: true,
				MarkdownDescription: "Namespace of the installation, as in `landscaper_installation` (default `default`)."},
			"blueprint":            shared.BlueprintSourceDataAttribute(),
			"component_descriptor": shared.ComponentSourceDataAttribute(),
			"imports": schema.SingleNestedAttribute{Optional: true,
				MarkdownDescription: "The installation's imports, by the names the blueprint declares. " +
					"Secret and ConfigMap imports are not available here: pass their values in `data`.",
				Attributes: map[string]schema.Attribute{
					"data": schema.DynamicAttribute{Optional: true,
						MarkdownDescription: "Data imports: an object of import name → any value."},
					"targets": schema.MapAttribute{Optional: true, Sensitive: true, ElementType: types.StringType,
						MarkdownDescription: "Target imports: import name → Target object JSON."},
					"target_lists": schema.MapAttribute{Optional: true, Sensitive: true,
						ElementType:         types.ListType{ElemType: types.StringType},
						MarkdownDescription: "`targetList` imports: import name → list of Target object JSON."},
					"target_maps": schema.MapAttribute{Optional: true, Sensitive: true,
						ElementType:         types.MapType{ElemType: types.StringType},
						MarkdownDescription: "`targetMap` imports: import name → map of key → Target object JSON."},
				}},
			"import_data_mappings": schema.DynamicAttribute{Optional: true,
				MarkdownDescription: "Landscaper `importDataMappings` (Spiff), as in `landscaper_installation`."},
			"subinstallation_exports": subinstallationExportsAttribute(),
			"deploy_items": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Every deploy item the tree renders, sorted by installation path and name.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"installation": computedString("Path of the (sub)installation that renders the item, e.g. `app/database`."),
					"name":         computedString("Name of the deploy item."),
					"type":         computedString("Deploy item type."),
					"target":       computedString("Target import it deploys to, e.g. `cluster` or `clusters[0]`."),
					"depends_on":   schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Items it waits for."},
					"config_hash": schema.StringAttribute{Computed: true, Sensitive: true,
						MarkdownDescription: "SHA-256 of the rendered configuration (first 128 bits). Unkeyed, so it could be used to test " +
							"guesses of secrets in the configuration: sensitive like `config`. `landscaper_installation` shows a hash keyed " +
							"per installation instead, which differs from this one."},
					"config": schema.StringAttribute{Computed: true, Sensitive: true,
						MarkdownDescription: "The rendered configuration (`spec.config` of the deploy item) as JSON. Sensitive: templates may put imported secrets into it."},
				}}},
			"subinstallations_pending": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Subinstallations that cannot be rendered before apply because they import exports " +
					"of a sibling; their deploy items are not in `deploy_items`.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"installation": computedString("Path of the subinstallation."),
					"reason":       computedString("Why it waits."),
				}}},
			"warnings": schema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Unknown fields in the blueprints and rendered templates, prefixed with the installation path."},
		},
	}
	renderedPreviewAttributes(resp.Schema.Attributes)
}

func (d *RenderedInstallationDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m renderedInstallationModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	shared.CheckSources(m.Blueprint, m.ComponentDescriptor, &resp.Diagnostics)
}

func (d *RenderedInstallationDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m renderedInstallationModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The resource's own conversion, with no host cluster: what this
	// data source shows is what the installation would plan.
	in := d.Data.Inputs(component.Pins{})
	in.Host = nil
	inst, err := m.installation(ctx)
	if err != nil {
		shared.AddError(&resp.Diagnostics, in.Security, "Invalid Imports", shared.AttrErr(path.Root("imports"), err))
		return
	}
	spec, err := shared.RootSpec(ctx, in, inst)
	if err != nil {
		shared.AddError(&resp.Diagnostics, in.Security, "Invalid Installation", err)
		return
	}
	if spec.StandIns, err = standIns(ctx, m.SubinstallationExports, path.Root("subinstallation_exports")); err != nil {
		shared.AddError(&resp.Diagnostics, in.Security, "Invalid Subinstallation Exports", err)
		return
	}
	for _, si := range spec.StandIns {
		for _, t := range si.Targets {
			in.Security.LearnTarget(t) // masked like imported targets' credentials; never trusted: nothing connects
		}
	}
	tree, rows := shared.RenderTree(ctx, in.Security, d.Data.EngineOrNil(), spec, nil, &resp.Diagnostics)
	if tree == nil {
		return
	}
	m.DeployItems = renderedItemList(rows, &resp.Diagnostics)
	pending := make([]map[string]attr.Value, 0, len(tree.Unknown))
	for _, u := range tree.Unknown {
		pending = append(pending, map[string]attr.Value{
			"installation": types.StringValue(u.Path), "reason": types.StringValue(u.Reason),
		})
	}
	m.SubinstallationsPending = objectList(pendingInstallationAttrTypes, pending, &resp.Diagnostics)
	m.Warnings = stringList(tree.Warnings, &resp.Diagnostics)
	d.renderedPreview(ctx, &m, spec.Name, tree, &resp.Diagnostics)
	resp.Diagnostics.Append(in.Security.SetState(ctx, &resp.State, &m)...)
}

// installation is the configuration as the installation resource's model,
// so RootSpec converts it exactly as it converts the resource's.
func (m renderedInstallationModel) installation(ctx context.Context) (shared.InstallationModel, error) {
	imports, err := resourceImportsObject(ctx, m.Imports)
	return shared.InstallationModel{
		Name: m.Name, Namespace: m.Namespace, Blueprint: m.Blueprint, ComponentDescriptor: m.ComponentDescriptor,
		Imports: imports, ImportDataMappings: m.ImportDataMappings, ExportDataMappings: types.DynamicNull(),
		// No Landscaper Context, not even the namespace's default one:
		// rendering here never contacts a cluster.
		Context: types.StringValue(""),
	}, err
}

// resourceImportsObject widens the data source's imports object to the
// resource's type: the attributes the data source lacks (secrets,
// config_maps) are null.
func resourceImportsObject(ctx context.Context, in types.Object) (types.Object, error) {
	objType, ok := shared.ImportsSchema().GetType().(types.ObjectType)
	if !ok {
		return types.Object{}, fmt.Errorf("the installation's imports attribute is not an object")
	}
	if in.IsNull() || in.IsUnknown() {
		if in.IsUnknown() {
			return types.ObjectUnknown(objType.AttrTypes), nil
		}
		return types.ObjectNull(objType.AttrTypes), nil
	}
	given := in.Attributes()
	attrs := make(map[string]attr.Value, len(objType.AttrTypes))
	for name, t := range objType.AttrTypes {
		if v, ok := given[name]; ok {
			attrs[name] = v
			continue
		}
		null, err := t.ValueFromTerraform(ctx, tftypes.NewValue(t.TerraformType(ctx), nil))
		if err != nil {
			return types.Object{}, fmt.Errorf("imports.%s: %w", name, err)
		}
		attrs[name] = null
	}
	o, d := types.ObjectValue(objType.AttrTypes, attrs)
	if d.HasError() {
		return types.Object{}, fmt.Errorf("imports: %v", d)
	}
	return o, nil
}

func renderedItemList(rows []shared.DeployItemRow, diags *diag.Diagnostics) types.List {
	objs := make([]map[string]attr.Value, 0, len(rows))
	for _, r := range rows {
		deps := make([]attr.Value, 0, len(r.DependsOn))
		for _, d := range r.DependsOn {
			deps = append(deps, types.StringValue(d))
		}
		objs = append(objs, map[string]attr.Value{
			"installation": types.StringValue(r.Installation), "name": types.StringValue(r.Name),
			"type": types.StringValue(r.Type), "target": types.StringValue(r.Target),
			"depends_on": types.ListValueMust(types.StringType, deps), "config_hash": types.StringValue(r.ConfigHash),
			"config": types.StringValue(r.Config),
		})
	}
	return objectList(renderedItemAttrTypes, objs, diags)
}
