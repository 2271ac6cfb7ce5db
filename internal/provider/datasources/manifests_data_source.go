package datasources

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// NewManifestsDataSource returns the landscaper_manifests data source: a
// stream of Landscaper manifests split by kind and name, so a directory of
// Installations can be applied with for_each.
func NewManifestsDataSource() datasource.DataSource { return &manifestsDataSource{} }

type manifestsDataSource struct{}

type manifestsDataModel struct {
	YAML          types.String `tfsdk:"yaml"`
	Installations types.Map    `tfsdk:"installations"`
	DataObjects   types.Map    `tfsdk:"data_objects"`
	Targets       types.Map    `tfsdk:"targets"`
	Contexts      types.Map    `tfsdk:"contexts"`
	Objects       types.String `tfsdk:"objects"`
	Stages        types.List   `tfsdk:"stages"`
}

var manifestEntryAttrTypes = map[string]attr.Type{
	"name": types.StringType, "namespace": types.StringType, "manifest": types.StringType,
}

func (d *manifestsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_manifests"
}

func (d *manifestsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	entries := func(kind string, sensitive bool) schema.MapNestedAttribute {
		return schema.MapNestedAttribute{Computed: true, Sensitive: sensitive,
			MarkdownDescription: fmt.Sprintf("The %ss by `metadata.name`.", kind),
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name":      schema.StringAttribute{Computed: true, MarkdownDescription: "`metadata.name`."},
				"namespace": schema.StringAttribute{Computed: true, MarkdownDescription: "`metadata.namespace`, `default` when the manifest has none."},
				"manifest":  schema.StringAttribute{Computed: true, MarkdownDescription: "The document as written."},
			}}}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Splits Landscaper manifests (`landscaper.gardener.cloud/v1alpha1` Installations, DataObjects, " +
			"Targets and Contexts, several YAML documents separated by `---`) by kind and name, for " +
			"`for_each` over `landscaper_installation` with `manifest`. Every document is checked against Landscaper's API: " +
			"another kind or apiVersion, a field Landscaper does not define, or two objects of one kind with the same " +
			"name is an error on `yaml`.",
		Attributes: map[string]schema.Attribute{
			"yaml": schema.StringAttribute{Required: true,
				MarkdownDescription: "The manifests, e.g. `join(\"\\n---\\n\", [for f in fileset(path.module, \"landscape/*.yaml\") : file(f)])`."},
			"installations": entries("Installation", false),
			"data_objects":  entries("DataObject", false),
			"targets":       entries("Target", true),
			"contexts":      entries("Context", false),
			"objects": schema.StringAttribute{Computed: true, Sensitive: true,
				MarkdownDescription: "Every DataObject, Target and Context as one YAML stream, for `landscaper_installation`'s " +
					"`manifest_objects`. Sensitive, as Targets hold credentials."},
			"stages": shared.StagesAttribute(),
		},
	}
}

func (d *manifestsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m manifestsDataModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	set, err := landscaperyaml.Parse("yaml", m.YAML.ValueString())
	if err != nil {
		shared.AddError(&resp.Diagnostics, nil, "Invalid Landscaper Manifests", shared.AttrErr(path.Root("yaml"), err))
		return
	}
	var objects []string
	for _, out := range []struct {
		kind string
		into *types.Map
	}{
		{landscaperyaml.KindInstallation, &m.Installations},
		{landscaperyaml.KindDataObject, &m.DataObjects},
		{landscaperyaml.KindTarget, &m.Targets},
		{landscaperyaml.KindContext, &m.Contexts},
	} {
		docs := set.Documents(out.kind)
		byName := make(map[string]attr.Value, len(docs))
		seen := map[string]landscaperyaml.Document{}
		for _, doc := range docs {
			if first, dup := seen[doc.Name]; dup {
				shared.AddError(&resp.Diagnostics, nil, "Invalid Landscaper Manifests", shared.AttrMsg(path.Root("yaml"), fmt.Sprintf("%s and %s have the same name; the results are keyed by name, so read each namespace with its own data source", first, doc)))
				return
			}
			seen[doc.Name] = doc
			ns := doc.Namespace
			if ns == "" {
				ns = "default"
			}
			v, diags := types.ObjectValue(manifestEntryAttrTypes, map[string]attr.Value{
				"name": types.StringValue(doc.Name), "namespace": types.StringValue(ns), "manifest": types.StringValue(doc.YAML)})
			resp.Diagnostics.Append(diags...)
			byName[doc.Name] = v
			if out.kind != landscaperyaml.KindInstallation {
				objects = append(objects, strings.TrimSuffix(doc.YAML, "\n"))
			}
		}
		mv, diags := types.MapValue(types.ObjectType{AttrTypes: manifestEntryAttrTypes}, byName)
		resp.Diagnostics.Append(diags...)
		*out.into = mv
	}
	m.Objects = types.StringValue(strings.Join(objects, "\n---\n"))
	if m.Stages, err = shared.ManifestStages(set); err != nil {
		shared.AddError(&resp.Diagnostics, nil, "Invalid Landscaper Manifests", shared.AttrErr(path.Root("yaml"), err))
		return
	}
	// Nothing here is secret the provider knows: the attributes are
	// parsed from the configuration's own YAML.
	var none *shared.Security
	resp.Diagnostics.Append(none.SetState(ctx, &resp.State, &m)...)
}
