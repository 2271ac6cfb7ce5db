package installation

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

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
	// secretExports name the exports whose values hold a registered
	// secret (scrubOutcome): sensitive whether or not sensitive_exports
	// names them.
	secretExports []string
	targetExports map[string]string
	items         []shared.DeployItemRow
	// ignored are the inventory Secrets the job did not use
	// (instance.Applied.Ignored), for a warning.
	ignored []string
	// renderInputs are what the job's rendering read, when a plan with
	// the same inputs may reuse it (shared.RenderInputs; zero otherwise).
	renderInputs shared.RenderInputs
}

// toModel copies the outcome into the model, keeping the configuration.
func (o *installationOutcome) toModel(ctx context.Context, m shared.InstallationModel, diags *diag.Diagnostics) shared.InstallationModel {
	m.ID = types.StringValue(m.Namespace.ValueString() + "/" + m.Name.ValueString())
	m.BlueprintDigest = types.StringValue(o.blueprintDigest)
	m.ComponentDigests = o.components
	if m.ComponentDigests.IsNull() || m.ComponentDigests.IsUnknown() {
		m.ComponentDigests = types.MapNull(types.StringType)
	}
	m.Phase = types.StringValue(o.phase)
	m.JobID = types.StringValue(o.jobID)
	m.JobIDFinished = types.StringValue(o.jobIDFinished)
	public, secret, d := splitExports(ctx, o.exports, m.SensitiveExports, o.secretExports)
	diags.Append(d...)
	exports, err := shared.DynamicValue(public)
	if err != nil {
		shared.AddError(diags, nil, "Cannot Record Exports", err)
	}
	m.Exports = exports
	secretValues, err := shared.DynamicValue(secret)
	if err != nil {
		diags.AddError("Cannot Record Exports", "sensitive exports could not be recorded")
	}
	m.SensitiveExportValues = secretValues
	te, d := types.MapValueFrom(ctx, types.StringType, orEmptyStrings(o.targetExports))
	diags.Append(d...)
	m.TargetExports = te
	m.ExportObjects = shared.ExportObjectsOf(ctx, m)
	m.SetDeployItems(o.items, true, diags)
	return m
}

// splitExports separates the exports named in sensitive_exports.
// Those in holdingSecrets are secret too: their values hold a Secret
// import's value, a write-only value or a credential, which Terraform
// users expect to stay sensitive wherever a blueprint passes it, as
// Terraform's own sensitivity follows a value through expressions.
func splitExports(ctx context.Context, exports map[string]any, names types.Set, holdingSecrets []string) (public, secret map[string]any, diags diag.Diagnostics) {
	public, secret = map[string]any{}, map[string]any{}
	sensitive, diags := readSensitiveExports(ctx, names)
	if diags.HasError() {
		return public, exports, diags // unsure which are secret: treat all as secret
	}
	sensitive = append(sensitive, holdingSecrets...)
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

// markDrifted records the deploy items named in drifted (keys are item
// paths) in deploy_item_errors as "Drifted: <why>"; a plan expects no
// error, so it shows the repair.
func markDrifted(m *shared.InstallationModel, drifted map[string]string, diags *diag.Diagnostics) {
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
			failed[p] = types.StringValue(shared.DeployItemRow{Phase: driftedPhase, LastError: reason}.ErrorText())
		}
	}
	var d diag.Diagnostics
	m.DeployItemErrors, d = types.MapValue(types.StringType, failed)
	diags.Append(d...)
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
			row := shared.DeployItemRow{Installation: in.Path, Name: it.Name, Type: it.Type, Target: it.Target.Expression(),
				DependsOn: shared.OrEmptyList(it.DependsOn), Phase: string(it.Phase), ConfigHash: it.ConfigHash}
			if it.LastError != nil {
				row.LastError = it.LastError.Text()
			}
			out.items = append(out.items, row)
		}
	}
	shared.SortRows(out.items)
	return out, err
}

// renderedFrom records what the job rendered: the component versions'
// digests and the blueprint's digest.
func (o *installationOutcome) renderedFrom(spec engine.RootSpec) error {
	o.components = shared.ComponentDigests(spec.Component)
	o.blueprint, o.component = spec.Blueprint, spec.Component
	var err error
	if o.blueprintDigest, err = hostaccess.BlueprintDigest(spec.Blueprint, spec.Component); err != nil {
		return fmt.Errorf("hashing the blueprint's files: %w", err)
	}
	return nil
}

// scrubOutcome masks secrets in the last errors that go into state and
// marks exported targets whose kubeconfig is not the user's.
func scrubOutcome(s *shared.Security, o *installationOutcome) {
	if o == nil {
		return
	}
	for i := range o.items {
		o.items[i].LastError = s.Scrub(o.items[i].LastError)
	}
	o.secretExports = nil
	for name, v := range o.exports {
		if s.HoldsSecret(name, v) {
			o.secretExports = append(o.secretExports, name)
		}
	}
	for name, raw := range o.targetExports {
		var t api.Target
		if json.Unmarshal([]byte(raw), &t) != nil || s.UserKubeconfig(t) {
			continue
		}
		if b, err := json.Marshal(shared.MarkExported(t)); err == nil {
			o.targetExports[name] = string(b)
		}
	}
}
