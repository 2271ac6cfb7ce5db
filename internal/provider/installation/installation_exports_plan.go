package installation

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// Exports known at plan (issue 34): a plan that re-runs the job used to
// make `exports` wholly unknown, which blanked every installation that
// imports one of them although most exports follow from what the plan
// has just rendered (a Service's port, the namespace). The previews'
// objects now decide the deploy items' exports (deployer.ExportPredictor),
// the root's export executions run on them (blueprint.PredictExports),
// and only what the cluster decides stays unknown — that key alone, an
// object attribute of any type inside the dynamic value.

// plannedExports is what the previews could say of the root's exports;
// ok false: not even which exports there will be.
type plannedExports struct {
	blueprint.PlannedExports
	ok bool
}

// planExports sets exports and sensitive_export_values of a plan that
// runs the job from what the previews predicted, split as the apply
// splits them (splitExports): named in sensitive_exports or holding a
// secret the provider knows. An unknown value not named there is planned
// in exports; should it hold a secret after all, the apply says so
// (checkPlannedExports) rather than show it.
//
// The known values of exports named in sensitive_exports are registered
// as secrets before the plan is set, as the apply registers them, so the
// plan masks them in deploy_item_objects as the applied state will. It
// reports whether an export named there (or possibly named there) stays
// unknown: its value becomes a secret only at apply.
func (r *InstallationResource) planExports(ctx context.Context, plan *shared.InstallationModel, predicted plannedExports, sec *shared.Security, diags *diag.Diagnostics) (sensitiveUnknown bool) {
	if plan.SensitiveExports.IsUnknown() {
		return true // stays unknown, as ModifyPlan set it
	}
	named, d := readSensitiveExports(ctx, plan.SensitiveExports)
	if d.HasError() {
		return len(named) > 0
	}
	if !predicted.ok {
		return len(named) > 0 // stays unknown, as ModifyPlan set it
	}
	public, secret := map[string]any{}, map[string]any{}
	var publicUnknown, secretUnknown []string
	for k, v := range predicted.Known {
		if slices.Contains(named, k) && sec != nil {
			sec.Secrets.AddValue(v)
		}
		if slices.Contains(named, k) || (sec != nil && sec.HoldsSecret(k, v)) {
			secret[k] = v
		} else {
			public[k] = v
		}
	}
	for _, k := range predicted.Unknown {
		if slices.Contains(named, k) {
			secretUnknown = append(secretUnknown, k)
		} else {
			publicUnknown = append(publicUnknown, k)
		}
	}
	exports, err := shared.PartlyKnownValue(public, publicUnknown)
	if err != nil {
		return len(named) > 0
	}
	secretValues, err := shared.PartlyKnownValue(secret, secretUnknown)
	if err != nil {
		return len(named) > 0
	}
	plan.Exports, plan.SensitiveExportValues = exports, secretValues
	if predicted.NoTargets {
		plan.TargetExports = types.MapValueMust(types.StringType, map[string]attr.Value{})
	}
	return len(secretUnknown) > 0
}

// checkPlannedExports reports an apply whose exports are not what the
// plan showed as known. Terraform would stop with "Provider produced
// inconsistent result", which reads as a defect and names nothing; this
// error names the exports (never their values) and says what to do. The
// job's outcome is recorded all the same.
func checkPlannedExports(planned, applied shared.InstallationModel, sec *shared.Security, diags *diag.Diagnostics) {
	var differ []string
	differ = append(differ, exportsNotAsPlanned("", planned.Exports, applied.Exports)...)
	differ = append(differ, exportsNotAsPlanned("sensitive ", planned.SensitiveExportValues, applied.SensitiveExportValues)...)
	if len(differ) == 0 {
		return
	}
	sort.Strings(differ)
	shared.AddError(diags, sec, "Exports Not As Planned", fmt.Errorf(
		"the plan showed %s as known, but the apply produced other values or other exports (a cluster changed an object "+
			"after the plan, or a value turned out to hold a secret). The deployment is done and recorded in the state; "+
			"run terraform plan again to see the exports as they are", strings.Join(differ, ", ")))
}

func exportsNotAsPlanned(kind string, planned, applied types.Dynamic) []string {
	if planned.IsUnknown() || planned.IsNull() || planned.IsUnderlyingValueUnknown() {
		return nil
	}
	p, ok := planned.UnderlyingValue().(basetypes.ObjectValue)
	if !ok {
		return nil
	}
	var a map[string]attr.Value
	if o, ok := applied.UnderlyingValue().(basetypes.ObjectValue); ok {
		a = o.Attributes()
	}
	var out []string
	for k, v := range p.Attributes() {
		got, has := a[k]
		switch {
		case !has:
			out = append(out, fmt.Sprintf("%sexport %q", kind, k))
		case isUnknownAttr(v):
		case !v.Equal(got):
			out = append(out, fmt.Sprintf("%sexport %q", kind, k))
		}
	}
	for k := range a {
		if _, has := p.Attributes()[k]; !has {
			out = append(out, fmt.Sprintf("%sexport %q (not planned)", kind, k))
		}
	}
	return out
}

func isUnknownAttr(v attr.Value) bool {
	if d, ok := v.(basetypes.DynamicValue); ok {
		return d.IsUnknown() || d.IsUnderlyingValueUnknown()
	}
	return v.IsUnknown()
}
