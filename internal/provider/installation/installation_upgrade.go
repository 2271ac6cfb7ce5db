package installation

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// UpgradeState holds one upgrader per earlier schema version
// (shared.InstallationSchemaVersion); version 0 is the first release. The
// engine snapshot in private state is versioned separately (package
// snapshot migrates it on load).
func (r *InstallationResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	v0 := installationResourceSchema() // version 0 has the same attributes
	v0.Version = 0
	upgrade := func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
		var sec *shared.Security // nil (nothing to mask) when the provider is not configured yet
		if r.Data != nil {
			sec = r.Data.Security
		}
		upgradeFromV0(ctx, sec, req, resp)
	}
	return map[int64]resource.StateUpgrader{0: {PriorSchema: &v0, StateUpgrader: upgrade}}
}

// upgradeFromV0 rewrites deploy_item_objects from one text per item to
// TextsValue's shape, so that the first plan after the upgrade shows no
// change of it; every other attribute is taken as it is.
func upgradeFromV0(ctx context.Context, sec *shared.Security, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
	resp.State.Raw = req.State.Raw
	var objects types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("deploy_item_objects"), &objects)...)
	if resp.Diagnostics.HasError() {
		return
	}
	texts, ok := shared.ParseTexts(objects)
	if !ok {
		return // null, or not readable: the next plan renders it anew
	}
	resp.Diagnostics.Append(sec.SetStateAttribute(ctx, &resp.State, path.Root("deploy_item_objects"), shared.TextsValue(texts, &resp.Diagnostics))...)
}
