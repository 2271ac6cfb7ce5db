package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
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
	// snap is snapshot decoded; blueprint and component are what the job
	// rendered (nil when it could not load them), for previews.
	snap      *engine.Snapshot
	blueprint *blueprint.Blueprint
	component *blueprint.Component
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
	// ignored are the inventory Secrets the job did not use
	// (instance.Applied.Ignored), for a warning.
	ignored []string
}

// deployItemRow is one deploy item, as the engine and the rendered
// installation data source know it; state keeps part of it
// (setDeployItems).
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
		addError(diags, nil, "Cannot Record Exports", err)
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
	m.ExportObjects = exportObjectsOf(ctx, m)
	m.setDeployItems(o.items, true, diags)
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

// setDeployItems records rows as deploy_items (item path → config_hash)
// and deploy_item_errors (item path → "<phase>: <why>" for the items that
// did not succeed). Two flat maps instead of a list of objects: Terraform
// and the plugin framework both work per value of a resource, and an
// object of eight attributes per item made 1,000 items 9,000 values,
// walked some thirty times per plan. hashKnown false plans every
// config_hash as known after apply (no config_hash key yet).
func (m *installationModel) setDeployItems(rows []deployItemRow, hashKnown bool, diags *diag.Diagnostics) {
	hashes := make(map[string]attr.Value, len(rows))
	failed := map[string]attr.Value{}
	for _, r := range rows {
		hash := types.StringUnknown()
		if hashKnown {
			hash = types.StringValue(r.ConfigHash)
		}
		hashes[r.path()] = hash
		if e := r.errorText(); e != "" {
			failed[r.path()] = types.StringValue(e)
		}
	}
	var d diag.Diagnostics
	m.DeployItems, d = types.MapValue(types.StringType, hashes)
	diags.Append(d...)
	m.DeployItemErrors, d = types.MapValue(types.StringType, failed)
	diags.Append(d...)
}

// setDeployItemsUnknown plans deploy_items and deploy_item_errors as
// known after apply.
func (m *installationModel) setDeployItemsUnknown() {
	m.DeployItems = types.MapUnknown(types.StringType)
	m.DeployItemErrors = types.MapUnknown(types.StringType)
}

// path is the item's key in deploy_items: its installation path and name.
func (r deployItemRow) path() string {
	return r.Installation + "/" + r.Name
}

// errorText is the item's entry in deploy_item_errors; "" for an item
// that succeeded.
func (r deployItemRow) errorText() string {
	switch {
	case r.Phase == string(api.DeployItemPhaseSucceeded) && r.LastError == "":
		return ""
	case r.LastError == "":
		return r.Phase
	}
	return r.Phase + ": " + r.LastError
}

// markDrifted records the deploy items named in drifted (keys are item
// paths) in deploy_item_errors as "Drifted: <why>"; a plan expects no
// error, so it shows the repair.
func markDrifted(m *installationModel, drifted map[string]string, diags *diag.Diagnostics) {
	if len(drifted) == 0 || m.DeployItems.IsNull() {
		return // nothing drifted, or no deploy items recorded: nothing to mark
	}
	if m.DeployItems.IsUnknown() || m.DeployItemErrors.IsUnknown() {
		diags.AddError("Cannot Record Drift", "deploy_items in state could not be read")
		return
	}
	items := m.DeployItems.Elements()
	failed := make(map[string]attr.Value, len(drifted)+len(m.DeployItemErrors.Elements()))
	for k, v := range m.DeployItemErrors.Elements() {
		failed[k] = v
	}
	for p, reason := range drifted {
		if _, ok := items[p]; ok {
			failed[p] = types.StringValue(deployItemRow{Phase: driftedPhase, LastError: reason}.errorText())
		}
	}
	var d diag.Diagnostics
	m.DeployItemErrors, d = types.MapValue(types.StringType, failed)
	diags.Append(d...)
}

// stateRows decodes deploy_items and deploy_item_errors into rows (path,
// phase, error and hash; type, target and dependencies are not recorded),
// sorted; false when deploy_items is null, unknown or unreadable.
func stateRows(m installationModel) ([]deployItemRow, bool) {
	if m.DeployItems.IsNull() || m.DeployItems.IsUnknown() || m.DeployItemErrors.IsUnknown() {
		return nil, false
	}
	failed := m.DeployItemErrors.Elements() // empty when null
	rows := make([]deployItemRow, 0, len(m.DeployItems.Elements()))
	for p, v := range m.DeployItems.Elements() {
		hash, ok := v.(types.String)
		cut := strings.LastIndexByte(p, '/')
		if !ok || cut < 0 {
			return nil, false
		}
		row := deployItemRow{Installation: p[:cut], Name: p[cut+1:], ConfigHash: hash.ValueString(),
			Phase: string(api.DeployItemPhaseSucceeded)}
		if e, ok := failed[p].(types.String); ok {
			row.Phase, row.LastError, _ = strings.Cut(e.ValueString(), ": ")
		}
		rows = append(rows, row)
	}
	sortRows(rows)
	return rows, true
}

// outcomeOf converts a snapshot into attribute values. When the snapshot
// cannot be encoded the outcome keeps prevBytes, the private state the job
// started from, and the error says so: an unreadable snapshot would make
// every later update and destroy fail.
func outcomeOf(s *engine.Snapshot, prevBytes []byte) (*installationOutcome, error) {
	b, err := snapshot.Marshal(s)
	if err != nil {
		b, err = prevBytes, fmt.Errorf("the engine snapshot of this job could not be recorded, private state keeps the previous one: %w", err)
	}
	out := &installationOutcome{
		snapshot: b, snap: s, phase: string(s.RootPhase()), jobID: s.JobID(), jobIDFinished: s.JobIDFinished(),
		exports: s.Exports(), targetExports: map[string]string{},
	}
	for name, t := range s.TargetExports() {
		tb, err := json.Marshal(t)
		if err == nil {
			out.targetExports[name] = string(tb)
		}
	}
	for _, in := range s.Installations() {
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			row := deployItemRow{Installation: in.Path, Name: it.Name, Type: it.Type, Target: it.Target.Expression(),
				DependsOn: orEmptyList(it.DependsOn), Phase: string(it.Phase), ConfigHash: it.ConfigHash}
			if it.LastError != nil {
				row.LastError = it.LastError.Text()
			}
			out.items = append(out.items, row)
		}
	}
	sortRows(out.items)
	return out, err
}

// renderedFrom records what the job rendered: the component versions'
// digests and the blueprint's digest.
func (o *installationOutcome) renderedFrom(spec engine.RootSpec) error {
	o.components = componentDigests(spec.Component)
	o.blueprint, o.component = spec.Blueprint, spec.Component
	var err error
	if o.blueprintDigest, err = blueprintDigest(spec.Blueprint, spec.Component); err != nil {
		return fmt.Errorf("hashing the blueprint's files: %w", err)
	}
	return nil
}

func orEmptyList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}
