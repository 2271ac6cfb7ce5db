package installation

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// A landscaper_reconcile job cannot write the resource's state, so it
// records its outcome in the installation's inventory (signed with the
// reconcile key) and the refresh reads it here. As Landscaper reports a
// job in the Installation's status, a failed job makes the phase Failed
// and gives each failed deploy item its error — the plan then proposes
// an update, whose job is the retry; a succeeded one ends what an earlier
// failed one reported. Only outcomes newer than the resource's last job
// count (job IDs are UUIDv7, ordered by time): that job's writes dropped
// any older one, and where one remains (a cluster that job did not
// write), it is stale.

// reconciledPrefix starts the deploy_item_errors message of an item a
// reconcile job failed: "Failed: reconcile job <id>: <why>".
const reconciledPrefix = "reconcile job "

// readReconciled applies to m the newest reconcile outcome the
// installation's inventory records, signed with hashKey's reconcile key,
// in the clusters of the root's target imports; it reports whether it
// changed m. Without a key, or when the clusters cannot be read (the
// drift check warned already), m stays as it is.
func (d *InstallationData) readReconciled(ctx context.Context, m *shared.InstallationModel, snap *engine.Snapshot, hashKey shared.ConfigHashKey, diags *diag.Diagnostics) bool {
	if hashKey == nil || snap.Empty() {
		return false
	}
	o, err := d.Instances(ctx).Reconciled(ctx, snap.Root.Path, rootTargets(snap), hashKey.ReconcileKey())
	if err != nil || o == nil || o.JobID <= m.JobID.ValueString() {
		return false
	}
	return applyReconciled(m, o, snap.Root.Phase, d.Security.Scrub, diags)
}

// rootTargets are the root installation's target imports in snap.
func rootTargets(snap *engine.Snapshot) []api.Target {
	var out []api.Target
	shared.EachTarget(snap.Root.Targets, func(t api.Target) { out = append(out, t) })
	return out
}

// applyReconciled records outcome o in m: when it failed, phase Failed
// and each failed deploy item's error (scrubbed); when it succeeded, the
// entries an earlier failed reconcile left are removed and, if that
// failure is all that made the phase Failed (the resource's last job,
// lastPhase, succeeded), the phase is Succeeded again.
func applyReconciled(m *shared.InstallationModel, o *instance.Reconciled, lastPhase api.InstallationPhase, scrub func(string) string, diags *diag.Diagnostics) bool {
	if m.DeployItemErrors.IsUnknown() || m.DeployItems.IsUnknown() {
		return false
	}
	items := m.DeployItems.Elements()
	errs := make(map[string]attr.Value, len(m.DeployItemErrors.Elements()))
	failedPrefix := string(api.DeployItemPhaseFailed) + ": " + reconciledPrefix
	for p, v := range m.DeployItemErrors.Elements() {
		if s, ok := v.(types.String); ok && strings.HasPrefix(s.ValueString(), failedPrefix) {
			continue // an earlier reconcile's: o supersedes it
		}
		errs[p] = v
	}
	phase := m.Phase.ValueString()
	if o.Phase == api.InstallationPhaseSucceeded {
		if phase == string(api.InstallationPhaseFailed) && lastPhase == api.InstallationPhaseSucceeded {
			phase = string(api.InstallationPhaseSucceeded)
		}
	} else {
		phase = string(api.InstallationPhaseFailed)
		for id, why := range o.Errors {
			if _, ok := items[id]; ok {
				row := shared.DeployItemRow{Phase: string(api.DeployItemPhaseFailed), LastError: reconciledPrefix + o.JobID + ": " + scrub(why)}
				errs[id] = types.StringValue(row.ErrorText())
			}
		}
	}
	newErrs, d := types.MapValue(types.StringType, errs)
	diags.Append(d...)
	if d.HasError() {
		return false
	}
	if len(errs) == 0 && m.DeployItemErrors.IsNull() {
		newErrs = m.DeployItemErrors
	}
	changed := phase != m.Phase.ValueString() || !newErrs.Equal(m.DeployItemErrors)
	m.Phase, m.DeployItemErrors = types.StringValue(phase), newErrs
	return changed
}
