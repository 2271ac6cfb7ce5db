// Package datasources holds the provider's data sources:
// landscaper_blueprint, landscaper_rendered_installation (the tree
// rendered without a cluster) and landscaper_manifests.
package datasources

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

var _ datasource.DataSourceWithValidateConfig = (*blueprintDataSource)(nil)

// NewBlueprintDataSource returns the landscaper_blueprint data source: what
// a blueprint declares (imports, exports, executions), read and validated
// without a cluster, so modules can check or document their inputs.
func NewBlueprintDataSource() datasource.DataSource { return &blueprintDataSource{} }

type blueprintDataSource struct{ RegistryUser }

type blueprintDataModel struct {
	Blueprint           types.Object `tfsdk:"blueprint"`
	ComponentDescriptor types.Object `tfsdk:"component_descriptor"`
	JSONSchemaVersion   types.String `tfsdk:"json_schema_version"`
	Imports             types.List   `tfsdk:"imports"`
	Exports             types.List   `tfsdk:"exports"`
	Executions          types.List   `tfsdk:"executions"`
	Subinstallations    types.List   `tfsdk:"subinstallations"`
	Warnings            types.List   `tfsdk:"warnings"`
}

var (
	blueprintImportAttrTypes = map[string]attr.Type{
		"name": types.StringType, "type": types.StringType, "target_type": types.StringType,
		"required": types.BoolType, "schema": types.StringType, "default": types.StringType, "parent": types.StringType,
	}
	blueprintExportAttrTypes = map[string]attr.Type{
		"name": types.StringType, "type": types.StringType, "target_type": types.StringType, "schema": types.StringType,
	}
	blueprintExecutionAttrTypes = map[string]attr.Type{
		"stage": types.StringType, "name": types.StringType, "type": types.StringType,
	}
)

func (d *blueprintDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_blueprint"
}

func (d *blueprintDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	computedString := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads and validates a blueprint without a cluster: its declared imports and exports, " +
			"executions and static subinstallations. Invalid blueprints are errors on `blueprint`; unknown fields " +
			"are `warnings`.",
		Attributes: map[string]schema.Attribute{
			"blueprint":            shared.BlueprintSourceDataAttribute(),
			"component_descriptor": shared.ComponentSourceDataAttribute(),
			"json_schema_version":  computedString("The blueprint's `jsonSchemaVersion` (Landscaper's default when not set)."),
			"imports": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Declared imports in declaration order; conditional imports follow their parent.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":        computedString("Import name."),
					"type":        computedString("`data`, `target`, `targetList` or `targetMap`."),
					"target_type": computedString("Target type of target imports, null for data."),
					"required":    schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the installation must provide it."},
					"schema":      computedString("JSON schema of data imports, as JSON; null for targets."),
					"default":     computedString("Default value of an optional data import, as JSON; null without default."),
					"parent":      computedString("For conditional imports: the optional import that must be given for this one to be considered."),
				}}},
			"exports": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Declared exports in declaration order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"name":        computedString("Export name."),
					"type":        computedString("`data` or `target`."),
					"target_type": computedString("Target type of target exports, null for data."),
					"schema":      computedString("JSON schema of data exports, as JSON; null for targets."),
				}}},
			"executions": schema.ListNestedAttribute{Computed: true,
				MarkdownDescription: "Template executions: import, deploy, subinstallation and export executions in that order.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"stage": computedString("`import`, `deploy`, `subinstallation` or `export`."),
					"name":  computedString("Execution name."),
					"type":  computedString("`GoTemplate` or `Spiff`."),
				}}},
			"subinstallations": schema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Static subinstallations: the name of an inline template, or `file:<path>` for one read from a file. " +
					"Subinstallation executions may render more."},
			"warnings": schema.ListAttribute{Computed: true, ElementType: types.StringType,
				MarkdownDescription: "Problems that do not stop the blueprint from loading, e.g. unknown fields."},
		},
	}
}

func (d *blueprintDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m blueprintDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	shared.CheckSources(m.Blueprint, m.ComponentDescriptor, &resp.Diagnostics)
}

func (d *blueprintDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m blueprintDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	in := d.Data.Inputs(component.Pins{})
	bp, _, err := shared.ResolveBlueprint(ctx, in, m.Blueprint, m.ComponentDescriptor)
	if err != nil {
		shared.AddError(&resp.Diagnostics, in.Security, "Invalid Blueprint", err)
		return
	}
	for _, w := range bp.Warnings {
		shared.AddWarning(&resp.Diagnostics, in.Security, "Blueprint Warning", shared.AttrMsg(path.Root("blueprint"), w))
	}
	m.JSONSchemaVersion = types.StringValue(bp.JSONSchemaVersion)
	m.Imports = objectList(blueprintImportAttrTypes, importRows(bp.Imports, ""), &resp.Diagnostics)
	m.Exports = objectList(blueprintExportAttrTypes, exportRows(bp.Exports), &resp.Diagnostics)
	m.Executions = objectList(blueprintExecutionAttrTypes, executionRows(bp.Spec), &resp.Diagnostics)
	m.Subinstallations = stringList(subinstallationNames(bp.Subinstallations), &resp.Diagnostics)
	m.Warnings = stringList(bp.Warnings, &resp.Diagnostics)
	resp.Diagnostics.Append(in.Security.SetState(ctx, &resp.State, &m)...)
}

// importRows flattens import declarations; conditional imports follow
// their parent and name it.
func importRows(defs []blueprint.ImportDefinition, parent string) []map[string]attr.Value {
	var rows []map[string]attr.Value
	for _, d := range defs {
		var def json.RawMessage
		if d.Default != nil {
			def = d.Default.Value
		}
		rows = append(rows, map[string]attr.Value{
			"name": types.StringValue(d.Name), "type": types.StringValue(string(d.Type)),
			"target_type": optionalString(d.TargetType), "required": types.BoolValue(d.IsRequired()),
			"schema": optionalJSON(d.Schema), "default": optionalJSON(def), "parent": optionalString(parent),
		})
		rows = append(rows, importRows(d.Imports, d.Name)...)
	}
	return rows
}

func exportRows(defs []blueprint.ExportDefinition) []map[string]attr.Value {
	rows := make([]map[string]attr.Value, 0, len(defs))
	for _, d := range defs {
		rows = append(rows, map[string]attr.Value{
			"name": types.StringValue(d.Name), "type": types.StringValue(string(d.Type)),
			"target_type": optionalString(d.TargetType), "schema": optionalJSON(d.Schema),
		})
	}
	return rows
}

func executionRows(s blueprint.Spec) []map[string]attr.Value {
	var rows []map[string]attr.Value
	for _, stage := range []struct {
		name  string
		execs []template.Execution
	}{
		{"import", s.ImportExecutions}, {"deploy", s.DeployExecutions},
		{"subinstallation", s.SubinstallationExecutions}, {"export", s.ExportExecutions},
	} {
		for _, e := range stage.execs {
			rows = append(rows, map[string]attr.Value{
				"stage": types.StringValue(stage.name), "name": types.StringValue(e.Name), "type": types.StringValue(e.Type),
			})
		}
	}
	return rows
}

func subinstallationNames(entries []blueprint.SubinstallationEntry) []string {
	names := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.File != "" {
			names = append(names, "file:"+e.File)
			continue
		}
		names = append(names, e.Name)
	}
	return names
}

func optionalString(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

// optionalJSON shows a JSON value compactly (null when absent), so
// jsondecode() in HCL gets exactly what the blueprint declared.
func optionalJSON(raw json.RawMessage) types.String {
	if len(raw) == 0 || string(raw) == "null" {
		return types.StringNull()
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return types.StringValue(string(raw))
	}
	b, err := json.Marshal(v)
	if err != nil {
		return types.StringValue(string(raw))
	}
	return types.StringValue(string(b))
}

func objectList(attrTypes map[string]attr.Type, rows []map[string]attr.Value, diags *diag.Diagnostics) types.List {
	elemType := types.ObjectType{AttrTypes: attrTypes}
	elems := make([]attr.Value, 0, len(rows))
	for _, r := range rows {
		o, d := types.ObjectValue(attrTypes, r)
		diags.Append(d...)
		elems = append(elems, o)
	}
	l, d := types.ListValue(elemType, elems)
	diags.Append(d...)
	return l
}

func stringList(values []string, diags *diag.Diagnostics) types.List {
	elems := make([]attr.Value, 0, len(values))
	for _, v := range values {
		elems = append(elems, types.StringValue(v))
	}
	l, d := types.ListValue(types.StringType, elems)
	diags.Append(d...)
	return l
}
