package provider

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

// ModifyPlan renders the blueprint tree without a cluster. It validates
// the blueprint and the imports (errors on the attribute, at plan time)
// and plans deploy_items, so the plan shows which items are added,
// changed (config_hash) or removed. When nothing changed and nothing
// drifted, it leaves the plan empty.
func (r *installationResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan installationModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	var state *installationModel
	if !req.State.Raw.IsNull() {
		state = &installationModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	}
	prevBytes, d := req.Private.GetKey(ctx, snapshotKey)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}

	rows, known := planDeployItems(ctx, plan, prevBytes, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	if state != nil && configEqual(plan, *state) && known && rowsEqual(ctx, rows, state.DeployItems) {
		return // nothing to do: keep every computed value as it is
	}
	plan.Phase = types.StringValue(string(api.InstallationPhaseSucceeded))
	plan.JobID = types.StringUnknown()
	plan.JobIDFinished = types.StringUnknown()
	plan.Exports = types.DynamicUnknown()
	plan.TargetExports = types.MapUnknown(types.StringType)
	if known {
		plan.DeployItems = deployItemList(rows, &resp.Diagnostics)
	} else {
		plan.DeployItems = types.ListUnknown(types.ObjectType{AttrTypes: deployItemAttrTypes})
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planDeployItems renders the tree; false when some input is not known
// until apply (values from other resources, Secret/ConfigMap imports,
// exports of deploy items).
func planDeployItems(ctx context.Context, plan installationModel, prevBytes []byte, diags *diag.Diagnostics) ([]deployItemRow, bool) {
	spec, err := rootSpec(ctx, plan, nil)
	if errors.Is(err, errUnknownValue) || errors.Is(err, errHostImportsAtPlan) {
		return nil, false
	}
	if err != nil {
		addError(diags, "Invalid Installation", err)
		return nil, false
	}
	prev, err := decodeSnapshot(prevBytes)
	if err != nil {
		diags.AddWarning("Engine Snapshot Unreadable", err.Error())
	}
	p, err := engine.Render(spec, prev)
	for _, w := range p.Warnings {
		diags.AddAttributeWarning(path.Root("blueprint"), "Blueprint Warning", w)
	}
	if err != nil {
		diags.AddAttributeError(renderErrorPath(err), "Invalid Installation", err.Error())
		return nil, false
	}
	if len(p.Unknown) > 0 {
		return nil, false
	}
	rows := make([]deployItemRow, 0, len(p.Items))
	for _, it := range p.Items {
		rows = append(rows, deployItemRow{Installation: it.Installation, Name: it.Name, Type: it.Type,
			Target: selectorString(it.Target), DependsOn: orEmptyList(it.DependsOn),
			Phase: string(api.DeployItemPhaseSucceeded), ConfigHash: it.ConfigHash})
	}
	sortRows(rows)
	return rows, true
}

// renderErrorPath points a render error at the attribute the user most
// likely has to change.
func renderErrorPath(err error) path.Path {
	msg := err.Error()
	switch {
	case strings.Contains(msg, "importDataMappings"):
		return path.Root("import_data_mappings")
	case strings.Contains(msg, "import "), strings.Contains(msg, "imports"):
		return path.Root("imports")
	}
	return path.Root("blueprint")
}

// sortRows groups deploy items by installation, keeping the order each
// blueprint rendered them in, so plan and state list them alike.
func sortRows(rows []deployItemRow) {
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].Installation < rows[j].Installation })
}

// configEqual compares the attributes the user sets.
func configEqual(a, b installationModel) bool {
	pairs := [][2]attr.Value{
		{a.Name, b.Name}, {a.Namespace, b.Namespace}, {a.Blueprint, b.Blueprint},
		{a.ComponentDescriptor, b.ComponentDescriptor}, {a.Imports, b.Imports},
		{a.ImportDataMappings, b.ImportDataMappings}, {a.ExportDataMappings, b.ExportDataMappings},
		{a.DeleteWithoutUninstall, b.DeleteWithoutUninstall}, {a.Timeouts, b.Timeouts},
	}
	for _, p := range pairs {
		if !p[0].Equal(p[1]) {
			return false
		}
	}
	return true
}

// rowsEqual compares planned rows with the deploy_items in state.
func rowsEqual(ctx context.Context, rows []deployItemRow, state types.List) bool {
	if state.IsNull() || state.IsUnknown() {
		return false
	}
	var models []deployItemRowModel
	if d := state.ElementsAs(ctx, &models, false); d.HasError() || len(models) != len(rows) {
		return false
	}
	for i, m := range models {
		s, p := m.row(ctx), rows[i]
		if s.Installation != p.Installation || s.Name != p.Name || s.Type != p.Type || s.Target != p.Target ||
			!slices.Equal(s.DependsOn, p.DependsOn) || s.Phase != p.Phase || s.LastError != p.LastError ||
			s.ConfigHash != p.ConfigHash {
			return false
		}
	}
	return true
}
