package shared

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
)

// The provider block's helm_storage: where Helm keeps the records of the
// releases Helm deploy items install. A provider setting, not a target's:
// a Target comes from blueprints and imports, which must not choose a
// database or hold its credentials, and the provider block is where the
// configuration's own secrets are (it is never stored in the state).
const helmStorageAttr = "helm_storage"

type helmStorageModel struct {
	Driver        types.String `tfsdk:"driver"`
	SQLConnection types.String `tfsdk:"sql_connection_string"`
}

// HelmStorageAttribute adds helm_storage to the provider's attributes.
func HelmStorageAttribute(attrs map[string]schema.Attribute) {
	attrs[helmStorageAttr] = schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Where Helm keeps the records of the releases of Helm deploy items (`helmDeployment`, the default). " +
			"Helm's Secret driver, the default, keeps each revision as one Secret in the release namespace, which holds at most 1 MiB: " +
			"a release whose chart, values and rendered manifest do not fit, compressed, fails the plan. Helm's SQL driver keeps the " +
			"same records in PostgreSQL, without that limit; `helm list` with `HELM_DRIVER=sql` and the same connection string reads them. " +
			"Releases are identified in the database by namespace and name only: give clusters that use the same release names " +
			"databases of their own. See the guide on Helm release storage.",
		Attributes: map[string]schema.Attribute{
			"driver": schema.StringAttribute{Optional: true,
				Validators: []validator.String{stringvalidator.OneOf(helm.DriverSecret, helm.DriverSQL)},
				MarkdownDescription: "`secret` (the default: Helm's Secret driver, as Landscaper's Helm deployer) or `sql` (Helm's " +
					"SQL driver, PostgreSQL). Changing it does not move existing releases: an apply refuses to install a release " +
					"the Secret driver still keeps."},
			"sql_connection_string": schema.StringAttribute{Optional: true, Sensitive: true,
				MarkdownDescription: "The PostgreSQL connection string of `driver = \"sql\"` (`postgres://user:password@host:5432/db?sslmode=require` " +
					"or `host=… user=… password=… dbname=…`). Defaults to `" + helm.SQLConnectionEnv + "`, the variable Helm's CLI reads. " +
					"It never appears in the state, a plan or a message."},
		},
	}
}

// HelmStorage reads helm_storage (obj), falling back to getenv for the
// connection string. The storage's secrets are for the provider's mask
// (NewProviderData registers them).
func HelmStorage(ctx context.Context, obj types.Object, getenv func(string) string) (helm.Storage, diag.Diagnostics) {
	var diags diag.Diagnostics
	var s helm.Storage
	if obj.IsNull() || obj.IsUnknown() {
		return s, diags
	}
	var m helmStorageModel
	diags.Append(obj.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	if diags.HasError() {
		return s, diags
	}
	s.Driver = m.Driver.ValueString()
	if s.SQL() {
		switch {
		case m.SQLConnection.IsUnknown():
			// Known at apply; until then nothing reads the database.
		case m.SQLConnection.IsNull():
			s.SQLConnection = getenv(helm.SQLConnectionEnv)
		default:
			s.SQLConnection = m.SQLConnection.ValueString()
		}
		if s.SQLConnection == "" && m.SQLConnection.IsUnknown() {
			return s, diags
		}
	} else if !m.SQLConnection.IsNull() && !m.SQLConnection.IsUnknown() {
		s.SQLConnection = m.SQLConnection.ValueString()
	}
	if err := s.Check(); err != nil {
		AddError(&diags, nil, "Invalid Helm Storage", AttrErr(path.Root(helmStorageAttr), err)) // Check never quotes the connection string
	}
	return s, diags
}

// helmStorageAttrTypes are helm_storage's attribute types, for tests that
// build the object.
var helmStorageAttrTypes = map[string]attr.Type{"driver": types.StringType, "sql_connection_string": types.StringType}
