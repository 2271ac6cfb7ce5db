package installation

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// clearRepaired removes from deploy_item_errors the "Drifted: …" entries
// of an earlier refresh that this refresh's drift check no longer finds
// (drifted): the item was put back outside the resource — by the
// landscaper_reconcile action, which cannot write the resource's state, or
// by hand — so state and cluster agree again and the plan proposes
// nothing for it. It reports whether it changed m.
func clearRepaired(m *shared.InstallationModel, drifted map[string]string, diags *diag.Diagnostics) bool {
	if m.DeployItemErrors.IsNull() || m.DeployItemErrors.IsUnknown() {
		return false
	}
	prefix := driftedPhase + ": " // deployItemRow.errorText
	kept := make(map[string]attr.Value, len(m.DeployItemErrors.Elements()))
	changed := false
	for p, v := range m.DeployItemErrors.Elements() {
		s, ok := v.(types.String)
		if _, still := drifted[p]; ok && !still && strings.HasPrefix(s.ValueString(), prefix) {
			changed = true
			continue
		}
		kept[p] = v
	}
	if !changed {
		return false
	}
	var d diag.Diagnostics
	m.DeployItemErrors, d = types.MapValue(types.StringType, kept)
	diags.Append(d...)
	return !d.HasError()
}
