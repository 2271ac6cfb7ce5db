// Package installation is the resource landscaper_installation: its
// plan (deploy items, the preview texts), apply, refresh and delete, its
// state and identity, the list resource, import from the inventory or a
// running Landscaper, and the schema upgrades. Its jobs run in package
// instance.
package installation

import (
	"context"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

var (
	_ resource.ResourceWithConfigure    = (*InstallationResource)(nil)
	_ resource.ResourceWithModifyPlan   = (*InstallationResource)(nil)
	_ resource.ResourceWithUpgradeState = (*InstallationResource)(nil)
)

// NewInstallationResource returns the landscaper_installation resource.
func NewInstallationResource() resource.Resource { return &InstallationResource{} }

type InstallationResource struct {
	Data *InstallationData
}

// security is the provider's Security; nil before Configure ran (its
// methods then mask what no secret can be known for).
func (r *InstallationResource) security() *shared.Security {
	if r.Data == nil || r.Data.ProviderData == nil {
		return nil
	}
	return r.Data.Security
}

func (r *InstallationResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_installation"
}

func (r *InstallationResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	shared.SchemaOfInstallation(ctx, resp)
}

func (r *InstallationResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	r.Data = installationDataFrom(req.ProviderData, &resp.Diagnostics)
}

// Create runs the install flow as a new installation instance. When the
// job fails the state still records everything deployed (Terraform then
// taints the resource: the replacement destroys it first, or, under
// create_before_destroy, adopts its objects before the old instance is
// destroyed; `terraform untaint` retries in place).
func (r *InstallationResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	var plan shared.InstallationModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	plan = shared.WithProviderTargetReferences(ctx, plan, nil, true)
	timeout, d := plan.Timeouts.Create(ctx, shared.DefaultJobTimeout)
	resp.Diagnostics.Append(d...)
	hashKey := shared.EnsureConfigHashKey(ctx, resp.Private, &resp.Diagnostics)
	identityOfModel(ctx, resp.Identity, plan, &resp.Diagnostics)
	r.runJob(ctx, plan, nil, newInstance(), timeout, jobOutput{&resp.State, resp.Private, &resp.Diagnostics, hashKey, req.Config, nil, resp.Private})
}

// Update starts a new job from the recorded snapshot. A failed update keeps
// what succeeded; the next apply retries in place.
func (r *InstallationResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var plan, prior shared.InstallationModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &prior)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.JobID.IsUnknown() {
		// ModifyPlan planned no job: only deploy_item_objects changes.
		identityOfModel(ctx, resp.Identity, plan, &resp.Diagnostics)
		resp.Diagnostics.Append(r.Data.Security.SetState(ctx, &resp.State, &plan)...)
		return
	}
	plan = shared.WithProviderTargetReferences(ctx, plan, &prior, true)
	prev, d := shared.GetSnapshot(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	instance := recordedInstance(ctx, req.Private, &resp.Diagnostics)
	if instance == "" { // created before instances were recorded
		instance = newInstance()
	}
	timeout, d := plan.Timeouts.Update(ctx, shared.DefaultJobTimeout)
	resp.Diagnostics.Append(d...)
	hashKey := shared.EnsureConfigHashKey(ctx, req.Private, &resp.Diagnostics)
	identityOfModel(ctx, resp.Identity, plan, &resp.Diagnostics)
	r.runJob(ctx, plan, prev, instance, timeout, jobOutput{&resp.State, resp.Private, &resp.Diagnostics, hashKey, req.Config, &prior, req.Private})
}

// jobOutput is where Create and Update record a job's outcome.
type jobOutput struct {
	state   *tfsdk.State
	private shared.PrivateSetter
	diags   *diag.Diagnostics
	hashKey shared.ConfigHashKey
	// config holds the write-only values the job renders with (withWriteOnly).
	config tfsdk.Config
	// prior is the state before the job (nil for a create) and planned
	// the plan's private state, for deploy_item_objects.
	prior   *shared.InstallationModel
	planned shared.PrivateGetter
}

// runJob runs one install job bounded by timeout and records its outcome,
// also when it failed: the state always says what is deployed.
func (r *InstallationResource) runJob(ctx context.Context, plan shared.InstallationModel, prev []byte, instance string, timeout time.Duration, out jobOutput) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	spec, d := shared.WithWriteOnly(ctx, plan, out.config)
	out.diags.Append(d...)
	jobCtx, tokens := r.Data.WithTokenBook(ctx, out.planned, true) // the tokens the plan reused; the rest are minted
	outcome, err := r.Data.apply(jobCtx, spec, prev, instance, out.hashKey, readPins(ctx, out.planned))
	out.diags.Append(r.Data.Security.SetTokens(ctx, out.private, tokens)...)
	if outcome != nil {
		warnIgnoredInventories(out.diags, r.Data.Security, outcome.ignored)
	}
	if outcome == nil { // nothing ran: the configuration could not even be read
		shared.AddError(out.diags, r.Data.Security, "Cannot Install", err)
		return
	}
	out.hashKey.KeyRows(outcome.items)
	state := outcome.toModel(ctx, plan, out.diags)
	if err == nil {
		checkPlannedExports(plan, state, r.Data.Security, out.diags)
	}
	state.ReconcileKey = out.hashKey.ReconcileKeyValue()
	state.DeployItemObjects = r.appliedTexts(ctx, plan, out.prior, outcome, out.hashKey, out.planned, out.private, out.diags)
	out.diags.Append(r.Data.Security.SetState(ctx, out.state, &state)...)
	out.diags.Append(r.Data.Security.SetSnapshot(ctx, out.private, outcome.snapshot)...)
	out.diags.Append(r.Data.Security.MarkApplied(ctx, out.private)...) // derived from the configuration now
	out.hashKey.Store(ctx, out.private, out.diags)
	out.diags.Append(r.Data.Security.RecordRenderKey(ctx, out.private, out.hashKey, outcome.renderInputs, err == nil)...)
	recordInstance(ctx, out.private, instance, out.diags)
	if err != nil {
		shared.AddError(out.diags, r.Data.Security, "Installation Failed", err)
	}
}

// Read checks every deploy item for drift; a drifted item shows as
// phase "Drifted", so the next plan proposes an update that repairs it.
func (r *InstallationResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	var state shared.InstallationModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	identityOfModel(ctx, resp.Identity, state, &resp.Diagnostics) // also for states from before identities
	snap, d := shared.GetSnapshot(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	if len(snap) == 0 {
		return
	}
	timeout, d := state.Timeouts.Read(ctx, 5*time.Minute)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	rekeyed := shared.RekeyLegacyHashes(ctx, req.Private, resp.Private, &state, &resp.Diagnostics)
	rekeyed = shared.BackfillExportObjects(ctx, &state) || rekeyed
	hashKey := shared.ReadConfigHashKey(ctx, resp.Private, &resp.Diagnostics) // rekeyLegacyHashes may have made it
	rekeyed = shared.BackfillReconcileKey(hashKey, &state) || rekeyed
	// One decoding of the snapshot serves the whole refresh (pins, drift,
	// texts, reconcile outcome): at 1,000 items each decoding costs more
	// than the refresh's own work. The drift check marks a copy.
	decoded, err := instance.Decode(snap)
	// What the next plan previews and its apply deploys (installation_pins.go).
	recordPins(ctx, r.Data.Security, resp.Private, r.Data.resolvePins(ctx, state, decoded), &resp.Diagnostics)
	storePrivateJSON(ctx, r.Data.Security, resp.Private, componentPinsKey, r.Data.resolveComponents(ctx, state), &resp.Diagnostics)
	var drifted map[string]string
	var marked []byte
	if err == nil {
		drifted, marked, err = r.Data.driftDecoded(ctx, state, decoded.Clone(), snap, shared.SnapshotProvenance(ctx, req.Private, &resp.Diagnostics))
	}
	if err != nil {
		// Refresh must not block a plan when a cluster is down: the
		// next apply reports it properly.
		shared.AddWarning(&resp.Diagnostics, r.Data.Security, "Drift Not Checked", err)
		drifted = nil
	}
	// A repair outside the resource (landscaper_reconcile, by hand)
	// ends what an earlier refresh found drifted.
	cleared := err == nil && clearRepaired(&state, drifted, &resp.Diagnostics)
	refreshed := r.refreshTexts(ctx, &state, decoded, resp.Private, &resp.Diagnostics)
	markDrifted(&state, drifted, &resp.Diagnostics)
	// After the drift: a failed reconcile's error is what the item shows.
	// Not when the drift check could not reach the clusters.
	reconciled := err == nil && r.Data.readReconciled(ctx, &state, decoded, hashKey, &resp.Diagnostics)
	if len(drifted) == 0 && !rekeyed && !cleared && !refreshed && !reconciled {
		return
	}
	resp.Diagnostics.Append(r.Data.Security.SetState(ctx, &resp.State, &state)...)
	if marked != nil { // updateOnChangeOnly items are applied again, too
		resp.Diagnostics.Append(r.Data.Security.SetSnapshot(ctx, resp.Private, marked)...)
	}
}

// Delete runs the delete flow. Whatever could not be deleted stays in
// state (phase DeleteFailed), so a later destroy picks it up.
func (r *InstallationResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	var state shared.InstallationModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	snap, d := shared.GetSnapshot(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	instance := recordedInstance(ctx, req.Private, &resp.Diagnostics)
	timeout, d := state.Timeouts.Delete(ctx, shared.DefaultJobTimeout)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	out, ignored, err := r.Data.delete(ctx, state, snap, instance, shared.ReadConfigHashKey(ctx, req.Private, &resp.Diagnostics),
		shared.SnapshotProvenance(ctx, req.Private, &resp.Diagnostics))
	warnIgnoredInventories(&resp.Diagnostics, r.Data.Security, ignored)
	if err == nil {
		return
	}
	if out != nil {
		hashKey := shared.EnsureConfigHashKey(ctx, req.Private, &resp.Diagnostics)
		hashKey.KeyRows(out.items)
		hashKey.Store(ctx, resp.Private, &resp.Diagnostics)
		remaining := out.toModel(ctx, state, &resp.Diagnostics)
		remaining.DeployItemObjects = remainingTexts(state, out.items, &resp.Diagnostics)
		resp.Diagnostics.Append(r.Data.Security.SetState(ctx, &resp.State, &remaining)...)
		resp.Diagnostics.Append(r.Data.Security.SetSnapshot(ctx, resp.Private, out.snapshot)...)
	}
	shared.AddError(&resp.Diagnostics, r.Data.Security, "Delete Failed", err)
}
