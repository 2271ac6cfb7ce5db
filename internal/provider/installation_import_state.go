package provider

import (
	"context"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
)

var _ resource.ResourceWithImportState = (*installationResource)(nil)

// ImportState takes "<namespace>/<name>" (or "<name>" in namespace
// default) and records only that. Nothing is read here, because the
// clusters to read are named by the configuration's target imports,
// which an import does not see: the apply that follows finds no
// snapshot, reads the installation's inventory through those targets
// (providerData.lostState) and starts its job from what it records.
func (r *installationResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	namespace, name, found := strings.Cut(req.ID, "/")
	if !found {
		namespace, name = "default", req.ID
	}
	if namespace == "" || name == "" || strings.Contains(name, "/") {
		resp.Diagnostics.AddError("Invalid Import ID",
			"Import a landscaper_installation by \"<namespace>/<name>\" (or \"<name>\" in namespace default), the name and namespace of its configuration; got "+strconv.Quote(req.ID)+".")
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), namespace+"/"+name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("namespace"), namespace)...)
}
