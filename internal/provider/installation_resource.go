package provider

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
)

var (
	_ resource.ResourceWithConfigure    = (*installationResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*installationResource)(nil)
	_ resource.ResourceWithUpgradeState = (*installationResource)(nil)
)

// NewInstallationResource returns the landscaper_installation resource.
func NewInstallationResource() resource.Resource { return &installationResource{} }

type installationResource struct {
	data *installationData
}

func (r *installationResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_installation"
}

func (r *installationResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	schemaOfInstallation(ctx, resp)
}

// UpgradeState holds one upgrader per earlier schema version
// (installationSchemaVersion); version 0 is the first release. The engine
// snapshot in private state is versioned separately (package snapshot
// migrates it on load).
func (r *installationResource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{}
}

func (r *installationResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.data = installationDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Create runs the install flow as a new installation instance. When the
// job fails the state still records everything deployed (Terraform then
// taints the resource: the replacement destroys it first, or, under
// create_before_destroy, adopts its objects before the old instance is
// destroyed; `terraform untaint` retries in place).
func (r *installationResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan installationModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan = withProviderTargetReferences(ctx, plan, nil, true)
	timeout, d := plan.Timeouts.Create(ctx, defaultJobTimeout)
	resp.Diagnostics.Append(d...)
	hashKey := ensureConfigHashKey(ctx, resp.Private, &resp.Diagnostics)
	identityOfModel(ctx, resp.Identity, plan, &resp.Diagnostics)
	r.runJob(ctx, plan, nil, newInstance(), timeout, jobOutput{&resp.State, resp.Private, &resp.Diagnostics, hashKey, req.Config, nil, resp.Private})
}

// Update starts a new job from the recorded snapshot. A failed update keeps
// what succeeded; the next apply retries in place.
func (r *installationResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, prior installationModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.JobID.IsUnknown() {
		// ModifyPlan planned no job: only deploy_item_objects changes.
		identityOfModel(ctx, resp.Identity, plan, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	plan = withProviderTargetReferences(ctx, plan, &prior, true)
	prev, d := getSnapshot(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	instance := recordedInstance(ctx, req.Private, &resp.Diagnostics)
	if instance == "" { // created before instances were recorded
		instance = newInstance()
	}
	timeout, d := plan.Timeouts.Update(ctx, defaultJobTimeout)
	resp.Diagnostics.Append(d...)
	hashKey := ensureConfigHashKey(ctx, req.Private, &resp.Diagnostics)
	identityOfModel(ctx, resp.Identity, plan, &resp.Diagnostics)
	r.runJob(ctx, plan, prev, instance, timeout, jobOutput{&resp.State, resp.Private, &resp.Diagnostics, hashKey, req.Config, &prior, req.Private})
}

// jobOutput is where Create and Update record a job's outcome.
type jobOutput struct {
	state   *tfsdk.State
	private privateSetter
	diags   *diag.Diagnostics
	hashKey configHashKey
	// config holds the write-only values the job renders with (withWriteOnly).
	config tfsdk.Config
	// prior is the state before the job (nil for a create) and planned
	// the plan's private state, for deploy_item_objects.
	prior   *installationModel
	planned privateGetter
}

// runJob runs one install job bounded by timeout and records its outcome,
// also when it failed: the state always says what is deployed.
func (r *installationResource) runJob(ctx context.Context, plan installationModel, prev []byte, instance string, timeout time.Duration, out jobOutput) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	spec, d := withWriteOnly(ctx, plan, out.config)
	out.diags.Append(d...)
	outcome, err := r.data.apply(ctx, spec, prev, instance, out.hashKey)
	if outcome != nil {
		warnIgnoredInventories(out.diags, r.data.security, outcome.ignored)
	}
	if outcome == nil { // nothing ran: the configuration could not even be read
		addError(out.diags, r.data.security, "Cannot Install", err)
		return
	}
	out.hashKey.keyRows(outcome.items)
	state := outcome.toModel(ctx, plan, out.diags)
	state.ReconcileKey = out.hashKey.reconcileKeyValue()
	state.DeployItemObjects = r.appliedTexts(ctx, plan, out.prior, outcome, out.hashKey, out.planned, out.private, out.diags)
	out.diags.Append(out.state.Set(ctx, &state)...)
	out.diags.Append(setSnapshot(ctx, out.private, outcome.snapshot)...)
	out.hashKey.store(ctx, out.private, out.diags)
	recordInstance(ctx, out.private, instance, out.diags)
	if err != nil {
		addError(out.diags, r.data.security, "Installation Failed", err)
	}
}

// Read checks every deploy item for drift; a drifted item shows as
// phase "Drifted", so the next plan proposes an update that repairs it.
func (r *installationResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state installationModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	identityOfModel(ctx, resp.Identity, state, &resp.Diagnostics) // also for states from before identities
	snap, d := getSnapshot(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	if len(snap) == 0 {
		return
	}
	timeout, d := state.Timeouts.Read(ctx, 5*time.Minute)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	rekeyed := rekeyLegacyHashes(ctx, req.Private, resp.Private, &state, &resp.Diagnostics)
	rekeyed = backfillExportObjects(ctx, &state) || rekeyed
	hashKey := readConfigHashKey(ctx, resp.Private, &resp.Diagnostics) // rekeyLegacyHashes may have made it
	rekeyed = backfillReconcileKey(hashKey, &state) || rekeyed
	drifted, marked, err := r.data.drift(ctx, state, snap)
	if err != nil {
		// Refresh must not block a plan when a cluster is down: the
		// next apply reports it properly.
		addWarning(&resp.Diagnostics, r.data.security, "Drift Not Checked", err)
		drifted = nil
	}
	// A repair outside the resource (landscaper_reconcile, by hand)
	// ends what an earlier refresh found drifted.
	cleared := err == nil && clearRepaired(&state, drifted, &resp.Diagnostics)
	refreshed := r.refreshTexts(ctx, &state, snap, resp.Private, &resp.Diagnostics)
	markDrifted(&state, drifted, &resp.Diagnostics)
	// After the drift: a failed reconcile's error is what the item shows.
	// Not when the drift check could not reach the clusters.
	reconciled := err == nil && r.data.readReconciled(ctx, &state, snap, hashKey, &resp.Diagnostics)
	if len(drifted) == 0 && !rekeyed && !cleared && !refreshed && !reconciled {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
	if marked != nil { // updateOnChangeOnly items are applied again, too
		resp.Diagnostics.Append(setSnapshot(ctx, resp.Private, marked)...)
	}
}

// Delete runs the delete flow. Whatever could not be deleted stays in
// state (phase DeleteFailed), so a later destroy picks it up.
func (r *installationResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state installationModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	snap, d := getSnapshot(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	instance := recordedInstance(ctx, req.Private, &resp.Diagnostics)
	timeout, d := state.Timeouts.Delete(ctx, defaultJobTimeout)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	out, ignored, err := r.data.delete(ctx, state, snap, instance, readConfigHashKey(ctx, req.Private, &resp.Diagnostics))
	warnIgnoredInventories(&resp.Diagnostics, r.data.security, ignored)
	if err == nil {
		return
	}
	if out != nil {
		hashKey := ensureConfigHashKey(ctx, req.Private, &resp.Diagnostics)
		hashKey.keyRows(out.items)
		hashKey.store(ctx, resp.Private, &resp.Diagnostics)
		remaining := out.toModel(ctx, state, &resp.Diagnostics)
		remaining.DeployItemObjects = remainingTexts(state, out.items, &resp.Diagnostics)
		resp.Diagnostics.Append(resp.State.Set(ctx, &remaining)...)
		resp.Diagnostics.Append(setSnapshot(ctx, resp.Private, out.snapshot)...)
	}
	addError(&resp.Diagnostics, r.data.security, "Delete Failed", err)
}
