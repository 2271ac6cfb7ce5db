package installation

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// Resource identity (Terraform >= 1.12, OpenTofu >= 1.12): what
// `import { to = …, identity = { … } }` names and what `terraform query`
// lists.
//
// An installation is identified by its namespace and name, nothing else:
// they make its root path, which every deploy item ID, ownership label and
// the name of its inventory parent Secret derive from, so two
// installations of one namespace and name deploying to one cluster would
// be the same installation. Which clusters hold it is no part of the
// identity, as kubernetes_manifest's identity names no cluster either: an
// import looks for the installation's inventory in the clusters the
// provider block reaches without a configuration (installation_import_inventory.go).

var _ resource.ResourceWithIdentity = (*InstallationResource)(nil)

// installationIdentity is landscaper_installation's identity.
type installationIdentity struct {
	Namespace types.String `tfsdk:"namespace"`
	Name      types.String `tfsdk:"name"`
}

func (r *InstallationResource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			"namespace": identityschema.StringAttribute{OptionalForImport: true,
				Description: "Namespace of the installation; `default` when left out."},
			"name": identityschema.StringAttribute{RequiredForImport: true,
				Description: "Name of the installation."},
		},
	}
}

// setInstallationIdentity records namespace/name as the identity; a nil
// identity (a CLI without identity support never asks for one) is left.
func setInstallationIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, namespace, name string, diags *diag.Diagnostics) {
	if identity == nil {
		return
	}
	diags.Append(identity.Set(ctx, installationIdentity{Namespace: types.StringValue(namespace), Name: types.StringValue(name)})...)
}

// identityOfModel records the identity of an installation in state.
func identityOfModel(ctx context.Context, identity *tfsdk.ResourceIdentity, m shared.InstallationModel, diags *diag.Diagnostics) {
	ns := m.Namespace.ValueString()
	if ns == "" {
		ns = "default"
	}
	setInstallationIdentity(ctx, identity, ns, m.Name.ValueString(), diags)
}

// importedName is the namespace and name an import names: the ID
// "<namespace>/<name>" (or "<name>" in namespace default), or the identity
// of an `import` block.
func importedName(ctx context.Context, req resource.ImportStateRequest, diags *diag.Diagnostics) (namespace, name string, ok bool) {
	if req.ID == "" && req.Identity != nil {
		var id installationIdentity
		diags.Append(req.Identity.Get(ctx, &id)...)
		if diags.HasError() {
			return "", "", false
		}
		namespace, name = id.Namespace.ValueString(), id.Name.ValueString()
		if namespace == "" {
			namespace = "default"
		}
		if name == "" || strings.Contains(name, "/") || strings.Contains(namespace, "/") {
			shared.AddError(diags, nil, "Invalid Import Identity", errors.New("Import a landscaper_installation by identity { namespace = \"…\", name = \"…\" }, the name and namespace of its configuration; got namespace "+
				strconv.Quote(namespace)+" and name "+strconv.Quote(name)+"."))
			return "", "", false
		}
		return namespace, name, true
	}
	namespace, name, found := strings.Cut(req.ID, "/")
	if !found {
		namespace, name = "default", req.ID
	}
	if namespace == "" || name == "" || strings.Contains(name, "/") {
		shared.AddError(diags, nil, "Invalid Import ID", errors.New("Import a landscaper_installation by \"<namespace>/<name>\" (or \"<name>\" in namespace default), the name and namespace of its configuration; got "+strconv.Quote(req.ID)+"."))
		return "", "", false
	}
	return namespace, name, true
}
