package provider

import (
	"context"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// snapshotKey is the private-state key of the engine snapshot: the whole
// object tree of the last job, from which the next job and destroy start.
const snapshotKey = "engine_snapshot"

// driftedPhase is the deploy item phase Read records for drifted items; it
// differs from the planned "Succeeded", so the plan shows the repair.
const driftedPhase = "Drifted"

// installationOutcome is what a job leaves behind, in Terraform's terms.
type installationOutcome struct {
	snapshot []byte
	// blueprintDigest is blueprintDigest of what the job rendered; "" when
	// the job could not load the blueprint.
	blueprintDigest string
	// components is componentDigests of what the job rendered; null when
	// the job could not load the component.
	components    types.Map
	phase         string
	jobID         string
	jobIDFinished string
	exports       map[string]any
	targetExports map[string]string
	items         []deployItemRow
}

// deployItemRow is one element of deploy_items.
type deployItemRow struct {
	Installation string
	Name         string
	Type         string
	Target       string
	DependsOn    []string
	Phase        string
	LastError    string
	ConfigHash   string
	// Config is the rendered configuration, shown (sensitive) only by
	// the landscaper_rendered_installation data source.
	Config string
}

// toModel copies the outcome into the model, keeping the configuration.
func (o *installationOutcome) toModel(ctx context.Context, m installationModel, diags *diag.Diagnostics) installationModel {
	m.ID = types.StringValue(m.Namespace.ValueString() + "/" + m.Name.ValueString())
	m.BlueprintDigest = types.StringValue(o.blueprintDigest)
	m.ComponentDigests = o.components
	if m.ComponentDigests.IsNull() || m.ComponentDigests.IsUnknown() {
		m.ComponentDigests = types.MapNull(types.StringType)
	}
	m.Phase = types.StringValue(o.phase)
	m.JobID = types.StringValue(o.jobID)
	m.JobIDFinished = types.StringValue(o.jobIDFinished)
	public, secret, d := splitExports(ctx, o.exports, m.SensitiveExports)
	diags.Append(d...)
	exports, err := dynamicValue(public)
	if err != nil {
		diags.AddError("Cannot Record Exports", err.Error())
	}
	m.Exports = exports
	secretValues, err := dynamicValue(secret)
	if err != nil {
		diags.AddError("Cannot Record Exports", "sensitive exports could not be recorded")
	}
	m.SensitiveExportValues = secretValues
	te, d := types.MapValueFrom(ctx, types.StringType, orEmptyStrings(o.targetExports))
	diags.Append(d...)
	m.TargetExports = te
	m.DeployItems = deployItemList(o.items, diags)
	return m
}

// splitExports separates the exports named in sensitive_exports.
func splitExports(ctx context.Context, exports map[string]any, names types.Set) (public, secret map[string]any, diags diag.Diagnostics) {
	public, secret = map[string]any{}, map[string]any{}
	sensitive, diags := readSensitiveExports(ctx, names)
	if diags.HasError() {
		return public, exports, diags // unsure which are secret: treat all as secret
	}
	for k, v := range exports {
		if slices.Contains(sensitive, k) {
			secret[k] = v
		} else {
			public[k] = v
		}
	}
	return public, secret, diags
}

// readSensitiveExports reads the names in sensitive_exports.
func readSensitiveExports(ctx context.Context, names types.Set) ([]string, diag.Diagnostics) {
	var sensitive []string
	if names.IsNull() || names.IsUnknown() {
		return nil, nil
	}
	diags := names.ElementsAs(ctx, &sensitive, false)
	return sensitive, diags
}

// sensitiveExportNames is readSensitiveExports for the scrubber, which
// can only learn from names it could read.
func sensitiveExportNames(ctx context.Context, names types.Set) []string {
	sensitive, _ := readSensitiveExports(ctx, names)
	return sensitive
}

func orEmptyStrings(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}

func deployItemList(rows []deployItemRow, diags *diag.Diagnostics) types.List {
	return plannedDeployItemList(rows, true, diags)
}

// plannedDeployItemList is deployItemList for a plan; hashKnown false
// plans every config_hash as known after apply (no config_hash key yet).
func plannedDeployItemList(rows []deployItemRow, hashKnown bool, diags *diag.Diagnostics) types.List {
	elemType := types.ObjectType{AttrTypes: deployItemAttrTypes}
	elems := make([]attr.Value, 0, len(rows))
	for _, r := range rows {
		deps := make([]attr.Value, 0, len(r.DependsOn))
		for _, d := range r.DependsOn {
			deps = append(deps, types.StringValue(d))
		}
		hash := types.StringUnknown()
		if hashKnown {
			hash = types.StringValue(r.ConfigHash)
		}
		obj, d := types.ObjectValue(deployItemAttrTypes, map[string]attr.Value{
			"installation": types.StringValue(r.Installation),
			"name":         types.StringValue(r.Name),
			"type":         types.StringValue(r.Type),
			"target":       types.StringValue(r.Target),
			"depends_on":   types.ListValueMust(types.StringType, deps),
			"phase":        types.StringValue(r.Phase),
			"last_error":   types.StringValue(r.LastError),
			"config_hash":  hash,
		})
		diags.Append(d...)
		elems = append(elems, obj)
	}
	l, d := types.ListValue(elemType, elems)
	diags.Append(d...)
	return l
}

// markDrifted sets phase "Drifted" on the deploy items named in drifted
// (keys are "<installation>/<name>").
func markDrifted(ctx context.Context, m *installationModel, drifted map[string]string, diags *diag.Diagnostics) {
	if m.DeployItems.IsNull() {
		return // no deploy items recorded: nothing to mark
	}
	rows, ok := stateRows(ctx, m.DeployItems)
	if !ok {
		diags.AddError("Cannot Record Drift", "deploy_items in state could not be read")
		return
	}
	out := make([]deployItemRow, 0, len(rows))
	for _, row := range rows {
		if reason, ok := drifted[row.Installation+"/"+row.Name]; ok {
			row.Phase = driftedPhase
			row.LastError = reason
		}
		out = append(out, row)
	}
	m.DeployItems = deployItemList(out, diags)
}

// stateRows decodes deploy_items; false when it is null, unknown or
// unreadable. It reads the elements directly instead of through the
// framework's reflection (ElementsAs), which cost ~80 ms of CPU per no-op
// plan of 1,000 deploy items (BenchmarkInstallation).
func stateRows(_ context.Context, l types.List) ([]deployItemRow, bool) {
	if l.IsNull() || l.IsUnknown() {
		return nil, false
	}
	elems := l.Elements()
	rows := make([]deployItemRow, 0, len(elems))
	for _, e := range elems {
		row, ok := stateRow(e)
		if !ok {
			return nil, false
		}
		rows = append(rows, row)
	}
	return rows, true
}

// stateRow decodes one element of deploy_items.
func stateRow(e attr.Value) (deployItemRow, bool) {
	obj, ok := e.(types.Object)
	if !ok || obj.IsNull() || obj.IsUnknown() {
		return deployItemRow{}, false
	}
	fields := obj.Attributes()
	str := func(name string) string {
		s, _ := fields[name].(types.String)
		return s.ValueString() // "" when null or unknown, as a decoded model had it
	}
	deps, ok := fields["depends_on"].(types.List)
	if !ok || deps.IsUnknown() {
		return deployItemRow{}, false
	}
	row := deployItemRow{Installation: str("installation"), Name: str("name"), Type: str("type"), Target: str("target"),
		DependsOn: make([]string, 0, len(deps.Elements())), Phase: str("phase"), LastError: str("last_error"),
		ConfigHash: str("config_hash")}
	for _, d := range deps.Elements() {
		s, ok := d.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			return deployItemRow{}, false
		}
		row.DependsOn = append(row.DependsOn, s.ValueString())
	}
	return row, true
}
