package targetresource

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// A landscaper_target is identified by its name (the Target's
// metadata.name), which is also its ID: it exists only in Terraform state.

var _ resource.ResourceWithIdentity = (*targetResource)(nil)

type targetIdentity struct {
	Name types.String `tfsdk:"name"`
}

func (r *targetResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"name": identityschema.StringAttribute{RequiredForImport: true,
				Description: "Name of the Target object (`metadata.name`)."},
		},
	}
}

// setTargetIdentity records name as the identity; a nil identity (a CLI
// without identity support) is left.
func setTargetIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, name string, diags *diag.Diagnostics) {
	if identity == nil {
		return
	}
	diags.Append(identity.Set(ctx, targetIdentity{Name: types.StringValue(name)})...)
}

// importedTargetName is the name an import names: the ID, or the identity
// of an `import` block.
func importedTargetName(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) string {
	if req.ID != "" || req.Identity == nil {
		return req.ID
	}
	var id targetIdentity
	diags.Append(req.Identity.Get(ctx, &id)...)
	return id.Name.ValueString()
}
