package installation

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	apierrors "k8s.io/apimachinery/pkg/api/errors"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// ModifyPlan renders the blueprint tree without a cluster. It validates
// the blueprint and the imports (errors on the attribute, at plan time)
// and plans deploy_items, so the plan shows which items are added,
// changed (config_hash) or removed. When nothing changed and nothing
// drifted, it leaves the plan empty.
func (r *InstallationResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan shared.InstallationModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	var state *shared.InstallationModel
	if !req.State.Raw.IsNull() {
		state = &shared.InstallationModel{}
		resp.Diagnostics.Append(req.State.Get(ctx, state)...)
	}
	plan = shared.WithProviderTargetReferences(ctx, plan, state, false)
	prevBytes, d := shared.GetSnapshot(ctx, req.Private)
	resp.Diagnostics.Append(d...)
	hashKey := shared.ReadConfigHashKey(ctx, req.Private, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}

	// Tags are read at what refresh resolved, else resolved again (installation_pins.go).
	in := r.Data.Inputs(planComponentPins(ctx, req.Private, state))
	in.Notes = &shared.RegistryNotes{}
	specModel, d := shared.WithWriteOnly(ctx, plan, req.Config)
	resp.Diagnostics.Append(d...)
	// Tokens of getServiceAccountKubeconfig in deploy executions: reused
	// from the last apply while fresh, else known after apply.
	renderCtx, tokens := r.Data.WithTokenBook(ctx, req.Private, false)
	reuse := renderReuse{data: r.Data.providerData(), key: hashKey}
	if leftAsItIs(plan, state, r.Data.planDiffMode(plan)) {
		reuse.stored = shared.StoredRenderKey(ctx, req.Private)
	}
	rendered := planDeployItems(renderCtx, in, r.Data.EngineOrNil(), specModel, prevBytes, reuse, &resp.Diagnostics)
	in.Notes.AddTo(&resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	// Without a key (a create; state from before keys) the rows keep the
	// engine's hashes, which is what such a state holds, and the plan
	// shows config_hash as known after apply.
	if hashKey != nil {
		hashKey.KeyRows(rendered.rows)
	}
	if rendered.reused {
		checkReuse(plan, state, rendered, in.Security, &resp.Diagnostics)
		return // the inputs are the last apply's: nothing to do
	}
	known := rendered.known && len(rendered.unknownPaths) == 0
	if itemsUnchanged(plan, state, rendered) {
		if previewsKept(plan, *state, r.Data.planDiffMode(plan)) {
			return // nothing to do: keep every computed value as it is
		}
		// Only plan_diff or deploy_item_objects change (a state from
		// before the attribute): the job ID stays known, so Update runs
		// no job.
		textOnly := *state
		textOnly.PlanDiff, textOnly.Timeouts = plan.PlanDiff, plan.Timeouts
		r.planPreview(ctx, &textOnly, state, rendered, hashKey, req.Private, resp.Private, &resp.Diagnostics)
		resp.Diagnostics.Append(r.Data.Security.SetPlan(ctx, &resp.Plan, &textOnly)...)
		return
	}
	plan.Phase = types.StringValue(string(api.InstallationPhaseSucceeded))
	plan.BlueprintDigest = types.StringUnknown()
	if rendered.known {
		plan.BlueprintDigest = types.StringValue(rendered.digest)
	}
	plan.ComponentDigests = rendered.components
	plan.JobID = types.StringUnknown()
	plan.JobIDFinished = types.StringUnknown()
	plan.ReconcileKey = hashKey.ReconcileKeyValue()
	plan.Exports = types.DynamicUnknown()
	plan.SensitiveExportValues = types.DynamicUnknown()
	plan.TargetExports = types.MapUnknown(types.StringType)
	plan.ExportObjects = shared.PlannedExportObjects(plan)
	if known {
		plan.SetDeployItems(rendered.rows, hashKey != nil, &resp.Diagnostics)
	} else {
		plan.SetDeployItemsUnknown()
	}
	// The apply reuses what this plan reused and mints the rest.
	resp.Diagnostics.Append(r.Data.Security.SetTokens(ctx, resp.Private, tokens)...)
	rendered.predictExports = true
	exports := r.planPreview(ctx, &plan, state, rendered, hashKey, req.Private, resp.Private, &resp.Diagnostics)
	if r.planExports(ctx, &plan, exports, in.Security, &resp.Diagnostics) && !plan.DeployItemObjects.IsUnknown() &&
		(state == nil || !plan.DeployItemObjects.Equal(state.DeployItemObjects)) {
		// An export the user declared sensitive is not known yet: the
		// apply learns its value as a secret and masks it wherever the
		// texts show it, which would make them differ from a known plan
		// ("Provider produced inconsistent result"). Known after apply.
		plan.DeployItemObjects = types.StringUnknown()
	}
	resp.Diagnostics.Append(r.Data.Security.SetPlan(ctx, &resp.Plan, &plan)...)
}

// plannedItems is what rendering at plan time could know.
type plannedItems struct {
	// known is false when the root's own inputs are not known until
	// apply (values from other resources, Secret/ConfigMap imports that
	// could not be read).
	known bool
	// importsUnchanged says the root's imports hash to what the last job
	// recorded: Secret and ConfigMap imports can change while the
	// configuration stays the same, also when no deploy item uses them.
	importsUnchanged bool
	// rows are the deploy items of every installation that rendered.
	rows []shared.DeployItemRow
	// unknownPaths are subinstallations that import exports of their
	// siblings, which exist only after apply; their items are not in rows.
	unknownPaths []string
	// digest is blueprintDigest of the root blueprint.
	digest string
	// components is component_digests: unknown until the component loaded.
	components types.Map
	// tree and prev are the rendering and the snapshot it started from,
	// for the previews of deploy_item_objects; tree is nil when rendering
	// failed or was not possible.
	tree *engine.RenderedTree
	prev *engine.Snapshot
	// lsContext is the Landscaper Context whose credentials previews read
	// Helm charts with, as the job does (instancesIn).
	lsContext hostaccess.ContextRef
	// pins are what the previews fetch at, by item ID: read from the
	// refresh (installation_pins.go), completed by plannedTexts with what
	// its previews fetched.
	pins map[string]deployer.Pins
	// predictExports asks the previews for the root's exports too
	// (installation_exports_plan.go).
	predictExports bool
	// reused: the inputs are those of the last apply, whose rendering the
	// state holds (renderReuse), so nothing was rendered and the other
	// fields are zero — unless verifyRenderReuse rendered anyway.
	reused bool
}

// matches reports whether the state's deploy items are what the plan
// expects: the rendered ones equal, and those of installations that could
// not be rendered all succeeded.
func (p plannedItems) matches(state shared.InstallationModel) bool {
	rows, ok := shared.StateRows(state)
	if !ok {
		return false
	}
	planned := make(map[string]shared.DeployItemRow, len(p.rows))
	for _, r := range p.rows {
		planned[r.Path()] = r
	}
	seen := 0
	for _, r := range rows {
		if p.coversUnknown(r.Path()) {
			if r.ErrorText() != "" {
				return false
			}
			continue
		}
		want, ok := planned[r.Path()]
		if !ok || !sameRow(want, r) {
			return false
		}
		seen++
	}
	return seen == len(planned)
}

// coversUnknown reports whether the item at itemPath belongs to a
// subinstallation that cannot be rendered at plan time.
func (p plannedItems) coversUnknown(itemPath string) bool {
	for _, u := range p.unknownPaths {
		if strings.HasPrefix(itemPath, u+"/") {
			return true
		}
	}
	return false
}

// itemsUnchanged reports whether the rendered deploy items are the
// state's and nothing else the job would read changed. A job that failed
// outside the deploy items (Completing, a subinstallation) leaves them
// Succeeded but the phase Failed: only a Succeeded installation can have
// nothing to do.
func itemsUnchanged(plan shared.InstallationModel, state *shared.InstallationModel, rendered plannedItems) bool {
	return succeededAs(plan, state) && rendered.known && rendered.importsUnchanged && rendered.matches(*state) &&
		state.BlueprintDigest.ValueString() == rendered.digest
}

// succeededAs reports whether state is of a Succeeded installation with
// plan's configuration.
func succeededAs(plan shared.InstallationModel, state *shared.InstallationModel) bool {
	return state != nil && state.Phase.ValueString() == string(api.InstallationPhaseSucceeded) && configEqual(plan, *state)
}

// previewsKept reports whether the plan keeps the state's
// deploy_item_objects: they are settled in the plan's mode, and
// plan_diff is the state's.
func previewsKept(plan, state shared.InstallationModel, mode string) bool {
	return previewSettled(state, mode) && plan.PlanDiff.Equal(state.PlanDiff)
}

// planDeployItems renders the tree without a cluster, or reuses the last
// apply's rendering when its inputs are that apply's (renderReuse).
func planDeployItems(ctx context.Context, in shared.SpecInputs, eng *engine.Engine, plan shared.InstallationModel, prevBytes []byte, reuse renderReuse, diags *diag.Diagnostics) plannedItems {
	spec, err := shared.RootSpec(ctx, in, plan)
	components := types.MapUnknown(types.StringType)
	if spec.Blueprint != nil {
		components = shared.ComponentDigests(spec.Component)
	}
	var unread *shared.HostReadError
	switch {
	case errors.Is(err, shared.ErrUnknownValue) || errors.Is(err, shared.ErrHostImportsAtPlan):
		return plannedItems{components: components}
	case errors.As(err, &unread):
		// Apply reads it again and fails clearly if it still cannot; an
		// object the same apply creates is simply not there yet.
		if !apierrors.IsNotFound(unread) {
			shared.AddWarning(diags, in.Security, "Import Not Read At Plan", shared.AttrErr(path.Root("imports"),
				shared.NotedError{Err: err, Note: "The deploy items are planned as unknown; apply reads the import again."}))
		}
		return plannedItems{components: components}
	}
	if err != nil {
		shared.AddError(diags, in.Security, "Invalid Installation", err)
		return plannedItems{components: components}
	}
	prev, err := instance.Decode(prevBytes)
	if err != nil {
		shared.AddWarning(diags, in.Security, "Engine Snapshot Unreadable", err)
	}
	// Its sensitive exports may reach later installations of this plan
	// through imports.data, also without a refresh (-refresh=false), and
	// must be masked in their deploy_item_objects.
	in.Security.LearnSnapshot(prev, sensitiveExportNames(ctx, plan.SensitiveExports))
	// Hashed once: the render key covers it, and the plan compares it
	// with the state's.
	digest, digestErr := hostaccess.BlueprintDigest(spec.Blueprint, spec.Component)
	reused := digestErr == nil && reuse.matches(spec, digest, prevBytes)
	if reused && !verifyRenderReuse() {
		return plannedItems{reused: true}
	}
	tree, rows := shared.RenderTree(ctx, in.Security, eng, spec, prev, diags)
	if tree == nil {
		if shared.TokensPending(ctx) {
			return plannedItems{components: components}
		}
		return plannedItems{}
	}
	if digestErr != nil { // after rendering, whose errors say more
		shared.AddError(diags, in.Security, "Invalid Installation", shared.AttrErr(path.Root("blueprint"), fmt.Errorf("reading the blueprint's files: %w", digestErr)))
		return plannedItems{}
	}
	out := plannedItems{known: true, digest: digest, rows: rows, components: components, tree: tree, prev: prev, reused: reused}
	out.importsUnchanged = prev.Empty() || prev.Root.ImportsHash == tree.ImportsHash()
	for _, u := range tree.Unknown {
		out.unknownPaths = append(out.unknownPaths, u.Path)
	}
	return out
}

// configEqual compares the attributes the user sets.
func configEqual(a, b shared.InstallationModel) bool {
	pairs := [][2]attr.Value{
		{a.Name, b.Name}, {a.Namespace, b.Namespace}, {a.Blueprint, b.Blueprint},
		{a.ComponentDescriptor, b.ComponentDescriptor}, {a.Context, b.Context}, {a.Imports, b.Imports},
		{a.ImportDataMappings, b.ImportDataMappings}, {a.ExportDataMappings, b.ExportDataMappings},
		{a.Manifest, b.Manifest}, {a.ManifestObjects, b.ManifestObjects},
		{a.DeleteWithoutUninstall, b.DeleteWithoutUninstall}, {a.Timeouts, b.Timeouts},
		{a.SensitiveExports, b.SensitiveExports},
		{a.ProviderTargets, b.ProviderTargets}, {a.ProviderTargetReferences, b.ProviderTargetReferences},
	}
	for _, p := range pairs {
		if !p[0].Equal(p[1]) {
			return false
		}
	}
	return true
}

// sameRow compares a planned deploy item with one from state in what
// state records of it. Type, target and dependencies come from the
// blueprint and the imports, whose changes configEqual, the blueprint
// digest and the imports hash already catch.
func sameRow(p, s shared.DeployItemRow) bool {
	return s.Path() == p.Path() && s.Phase == p.Phase && s.LastError == p.LastError && s.ConfigHash == p.ConfigHash
}
