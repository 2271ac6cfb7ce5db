package installation

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/preview"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// deploy_item_objects (issue 24, package preview's doc): what the plan
// shows of each item's objects. "Before" is the state's value, which is
// what the last apply's plan showed (or, with plan_diff = "server", what
// refresh read from the clusters); a plan renders only the items whose
// configuration changed, or that failed or drifted, and takes every other
// item's text from the state, so a no-op plan renders nothing.

// Private-state keys: the marks of masked values recorded at the last
// apply (preview.Marks), and the capabilities of the clusters Helm items
// were applied to (instance.Capabilities), both gzip-compressed JSON like
// the engine snapshot.
const (
	previewMarksKey        = "preview_marks"
	previewCapabilitiesKey = "preview_capabilities"
)

// planDiffMode is the installation's plan_diff, else the provider's,
// else local.
func (d *InstallationData) planDiffMode(m shared.InstallationModel) string {
	if !m.PlanDiff.IsNull() && !m.PlanDiff.IsUnknown() && m.PlanDiff.ValueString() != "" {
		return m.PlanDiff.ValueString()
	}
	if d != nil && d.PlanDiff != "" {
		return d.PlanDiff
	}
	return shared.PlanDiffLocal
}

// deploy_item_objects is one string, a JSON object of item path → the
// item's objects by header → their lines (preview.ItemShape), rather than
// a map attribute: the plugin framework and the CLI cost per value of a
// resource (the framework's plan walks the whole resource once per
// top-level attribute), and 1,000 more values made a no-op plan of 1,000
// items cost a third more CPU (tools/bench/RESULTS.md, "Plan diff").
// Terraform and OpenTofu show a JSON string as `jsonencode({…})` with
// only the changed keys, and inside a changed object only the changed
// lines with one line of context on each side.

// texts reads deploy_item_objects as item path → text; false when it is
// null, unknown or not of either shape (shared.ParseTexts).
func texts(m shared.InstallationModel) (map[string]string, bool) {
	return shared.ParseTexts(m.DeployItemObjects)
}

// previewSettled reports whether the state's deploy_item_objects is what
// mode asks for: null when off, known otherwise.
func previewSettled(state shared.InstallationModel, mode string) bool {
	if mode == shared.PlanDiffOff {
		return state.DeployItemObjects.IsNull()
	}
	return !state.DeployItemObjects.IsNull() && !state.DeployItemObjects.IsUnknown()
}

// previewRunner is the runner of m's previews: Helm charts are read with
// the credentials of the Landscaper Context m uses, as its jobs read them.
func (d *InstallationData) previewRunner(ctx context.Context, m shared.InstallationModel) instance.Runner {
	ref, err := shared.ContextRefOf(m)
	if err != nil {
		return d.Instances(ctx)
	}
	return d.InstancesIn(ctx, ref)
}

// plannedTexts is deploy_item_objects for a plan whose items rendered
// (rendered.known, none pending). An item keeps its text from the state
// when its configuration hash is unchanged, it neither failed nor drifted
// and plan_diff's mode is the state's; every other item is previewed. It returns the marks to record
// in the planned private state.
func (d *InstallationData) plannedTexts(ctx context.Context, mode string, rendered plannedItems, state *shared.InstallationModel,
	key shared.ConfigHashKey, prior map[string]preview.Mark, caps map[string]*deployer.Capabilities, diags *diag.Diagnostics) (types.String, map[string]preview.Mark, plannedExports) {
	kept := map[string]string{}
	// Texts of the other mode (the server's form, or the local one) are
	// all shown anew: the plan then shows what the switch shows.
	if state != nil && d.planDiffMode(*state) == mode {
		old, _ := texts(*state)
		rows, _ := shared.StateRows(*state)
		recorded := make(map[string]shared.DeployItemRow, len(rows))
		for _, r := range rows {
			recorded[r.Path()] = r
		}
		for _, r := range rendered.rows {
			p := r.Path()
			s, ok := recorded[p]
			if t, has := old[p]; has && ok && key != nil && s.ConfigHash == r.ConfigHash && s.ErrorText() == "" && !strings.HasPrefix(t, shared.NoPreview) {
				kept[p] = t
			}
		}
	}
	opts := d.PreviewOptions(mode, key, prior, caps)
	for p := range kept {
		opts.Marks.Keep(p)
	}
	opts.Skip = func(id string) bool { _, ok := kept[id]; return ok }
	opts.Pins = rendered.pins
	out := kept
	shown := d.InstancesIn(ctx, rendered.lsContext).Preview(ctx, rendered.tree, rendered.prev, opts)
	for _, it := range shown {
		if len(it.Pins) > 0 && rendered.pins != nil {
			rendered.pins[it.ID] = it.Pins
		}
	}
	d.CollectPlanTexts(shown, out, diags)
	var exports plannedExports
	if !rendered.predictExports {
		return shared.TextsValue(out, diags), opts.Marks.Table(), exports
	}
	exports.PlannedExports, exports.ok = d.InstancesIn(ctx, rendered.lsContext).PredictExports(ctx, rendered.tree, rendered.prev, shown, opts)
	return shared.TextsValue(out, diags), opts.Marks.Table(), exports
}

// readPrivateJSON decodes the compressed JSON at key into v; false when
// none is recorded or it cannot be read (then the plan shows every
// masked value as changed once, or renders with default capabilities).
func readPrivateJSON(ctx context.Context, p shared.PrivateGetter, key string, v any) bool {
	b, d := p.GetKey(ctx, key)
	if d.HasError() || len(b) == 0 {
		return false
	}
	raw, err := shared.UnpackSnapshot(b, shared.MaxSnapshotBytes)
	return err == nil && json.Unmarshal(raw, v) == nil
}

// storePrivateJSON records v at key, compressed, through the masking exit.
func storePrivateJSON(ctx context.Context, sec *shared.Security, p shared.PrivateSetter, key string, v any, diags *diag.Diagnostics) {
	raw, err := json.Marshal(v)
	if err != nil {
		shared.AddError(diags, sec, "Cannot Record Private State", fmt.Errorf("%s: %w", key, err))
		return
	}
	diags.Append(sec.SetPrivate(ctx, p, key, raw, true)...)
}

func readMarks(ctx context.Context, p shared.PrivateGetter) map[string]preview.Mark {
	var m map[string]preview.Mark
	readPrivateJSON(ctx, p, previewMarksKey, &m)
	return m
}

func readCapabilities(ctx context.Context, p shared.PrivateGetter) map[string]*deployer.Capabilities {
	var c map[string]*deployer.Capabilities
	readPrivateJSON(ctx, p, previewCapabilitiesKey, &c)
	return c
}

// planPreview plans deploy_item_objects: null when off, unknown when not
// every item could be rendered, else plannedTexts, whose marks go into
// the planned private state (Update records them; Create gets an empty
// private state and records its own, appliedTexts). It returns the root's
// exports as far as the previews decide them (ok false: not at all).
func (r *InstallationResource) planPreview(ctx context.Context, plan *shared.InstallationModel, state *shared.InstallationModel, rendered plannedItems,
	key shared.ConfigHashKey, prior shared.PrivateGetter, planned shared.PrivateSetter, diags *diag.Diagnostics) (exports plannedExports) {
	mode := r.Data.planDiffMode(*plan)
	switch {
	case mode == shared.PlanDiffOff:
		plan.DeployItemObjects = types.StringNull()
	case r.Data == nil || !rendered.known || len(rendered.unknownPaths) > 0 || rendered.tree == nil:
		plan.DeployItemObjects = types.StringUnknown()
	default:
		rendered.lsContext, _ = shared.ContextRefOf(*plan) // known: the items rendered
		rendered.pins = readPins(ctx, prior)
		if rendered.pins == nil {
			rendered.pins = map[string]deployer.Pins{}
		}
		value, marks, predicted := r.Data.plannedTexts(ctx, mode, rendered, state, key, readMarks(ctx, prior), readCapabilities(ctx, prior), diags)
		plan.DeployItemObjects = value
		storePrivateJSON(ctx, r.Data.Security, planned, previewMarksKey, marks, diags)
		recordPins(ctx, r.Data.Security, planned, rendered.pins, diags)
		exports = predicted
	}
	return exports
}

// appliedTexts is deploy_item_objects after a job, and records the marks
// and capabilities for the next plan. A planned value is kept (Terraform
// requires it), except that items that did not succeed, or were not
// applied with the planned configuration (the job could not start), keep
// their previous text (or have none), so the next plan shows their
// change again. A create records the marks of its planned text under the key it
// just drew; a plan that could not know every item is completed from what
// the job recorded. prior is the state before the job (nil for a create),
// planned the request's private state.
func (r *InstallationResource) appliedTexts(ctx context.Context, plan shared.InstallationModel, prior *shared.InstallationModel, o *installationOutcome,
	key shared.ConfigHashKey, planned shared.PrivateGetter, out shared.PrivateSetter, diags *diag.Diagnostics) types.String {
	mode := r.Data.planDiffMode(plan)
	if mode == shared.PlanDiffOff || o.snap.Empty() {
		return types.StringNull()
	}
	runner := r.Data.previewRunner(ctx, plan)
	caps := readCapabilities(ctx, planned)
	result, known := texts(plan)
	if !known || prior == nil {
		var marks map[string]preview.Mark
		if prior != nil {
			marks = readMarks(ctx, planned)
		}
		opts := r.Data.PreviewOptions(mode, key, marks, caps)
		if known {
			opts.Skip = createMarksNone(mode, result, opts.Sensitive)
		}
		if !known || !allSkipped(o.items, opts.Skip) {
			shown := runner.PreviewRecorded(ctx, o.snap, o.blueprint, o.component, opts)
			if !known {
				result = map[string]string{}
				r.Data.CollectTexts(shown, result, diags)
			}
		}
		storePrivateJSON(ctx, r.Data.Security, out, previewMarksKey, opts.Marks.Table(), diags)
	}
	var old map[string]string
	if prior != nil {
		old, _ = texts(*prior)
	}
	items := make(map[string]bool, len(o.items))
	plannedHashes := plan.DeployItems.Elements() // empty when unknown
	for _, row := range o.items {
		p := row.Path()
		items[p] = true
		h, _ := plannedHashes[p].(types.String)
		if row.ErrorText() == "" && (h.IsNull() || h.IsUnknown() || h.ValueString() == row.ConfigHash) {
			continue // applied as planned
		}
		if t, ok := old[p]; ok {
			result[p] = t
		} else {
			delete(result, p)
		}
	}
	for p := range result {
		if !items[p] {
			delete(result, p)
		}
	}
	if now := runner.Capabilities(ctx, o.snap); len(now) > 0 {
		storePrivateJSON(ctx, r.Data.Security, out, previewCapabilitiesKey, now, diags)
	}
	return shared.TextsValue(result, diags)
}

// createMarksNone is what a create that keeps its planned texts need not
// render again: a create renders them only for their marks under the key
// it has just drawn, and an item whose planned text shows nothing masked,
// and in which none of the values registered now can be
// (preview.Sensitive.MasksNothing), records no marks. For a big chart
// that is a whole rendering of it saved (tools/bench/RESULTS.md, issue
// 34 item 9). With plan_diff = "server" the text is the cluster's, and
// every item is rendered, as before.
func createMarksNone(mode string, planned map[string]string, sensitive *preview.Sensitive) func(id string) bool {
	if mode != shared.PlanDiffLocal {
		return nil
	}
	return func(id string) bool {
		t, ok := planned[id]
		return ok && !strings.HasPrefix(t, shared.NoPreview) && sensitive.MasksNothing(t)
	}
}

// allSkipped reports whether skip skips every item of rows (nil: none).
func allSkipped(rows []shared.DeployItemRow, skip func(id string) bool) bool {
	if skip == nil {
		return false
	}
	for _, row := range rows {
		if !skip(row.Path()) {
			return false
		}
	}
	return true
}

// remainingTexts keeps the texts of the items a failed destroy left.
func remainingTexts(m shared.InstallationModel, rows []shared.DeployItemRow, diags *diag.Diagnostics) types.String {
	old, ok := texts(m)
	if !ok {
		return m.DeployItemObjects
	}
	out := map[string]string{}
	for _, r := range rows {
		if t, ok := old[r.Path()]; ok {
			out[r.Path()] = t
		}
	}
	return shared.TextsValue(out, diags)
}

// refreshTexts fills deploy_item_objects of a state that has none
// (written before it existed, or by a migration) from what the snapshot
// recorded, and with plan_diff = "server" replaces each item's text by
// its objects as its cluster has them now, so that the plan compares
// with what is really there. It reports whether m changed. p is the
// response's private state (which holds the request's).
func (r *InstallationResource) refreshTexts(ctx context.Context, m *shared.InstallationModel, snap *engine.Snapshot, p privateState, diags *diag.Diagnostics) bool {
	mode := r.Data.planDiffMode(*m)
	if mode == shared.PlanDiffOff || m.DeployItemObjects.IsUnknown() {
		return false // nothing to fill, nothing to read
	}
	// Every refresh of a local view has a text to keep: a syntax check
	// saves decoding the whole attribute (texts), which costs several
	// times more in the shape of lines than it did as one string per item.
	if mode == shared.PlanDiffLocal && !m.DeployItemObjects.IsNull() && json.Valid([]byte(m.DeployItemObjects.ValueString())) {
		return false
	}
	current, changed := texts(*m)
	if changed && mode == shared.PlanDiffLocal {
		return false
	}
	if snap.Empty() {
		return false
	}
	key := shared.ReadConfigHashKey(ctx, p, &diag.Diagnostics{}) // a damaged key was reported by the drift check
	marks := readMarks(ctx, p)
	caps := readCapabilities(ctx, p)
	runner := r.Data.previewRunner(ctx, *m)
	if !changed {
		current, changed = map[string]string{}, true
		var bp *blueprint.Blueprint
		var comp *blueprint.Component
		if runner.DriftReadsFiles(snap) {
			var lsContext hostaccess.ContextRef
			bp, comp, lsContext = r.Data.driftBlueprint(ctx, *m)
			runner = r.Data.InstancesIn(ctx, lsContext) // as the drift check reads Helm charts
		}
		opts := r.Data.PreviewOptions(shared.PlanDiffLocal, key, marks, caps)
		r.Data.CollectTexts(runner.PreviewRecorded(ctx, snap, bp, comp, opts), current, diags)
		marks = opts.Marks.Table()
		storePrivateJSON(ctx, r.Data.Security, p, previewMarksKey, marks, diags)
	}
	if mode == shared.PlanDiffServer {
		// The marks of this reading are not recorded: the plan compares
		// the planned values with the last apply's.
		var unread []string
		var reason error
		for _, l := range runner.Live(ctx, snap, current, r.Data.PreviewOptions(mode, key, marks, caps)) {
			switch {
			case l.Err != nil:
				unread = append(unread, l.ID)
				reason = l.Err
			case current[l.ID] != l.Text:
				current[l.ID], changed = l.Text, true
			}
		}
		if len(unread) > 0 {
			sort.Strings(unread)
			shared.AddWarning(diags, r.Data.Security, "Objects Not Read", shared.AttrErr(path.Root("plan_diff"), shared.NotedError{
				Err:  fmt.Errorf("plan_diff = \"server\": the objects of deploy items %s could not be read: %w", strings.Join(unread, ", "), reason),
				Note: "Their deploy_item_objects keep what the last apply recorded."}))
		}
	}
	if changed {
		m.DeployItemObjects = shared.TextsValue(current, diags)
	}
	return changed
}

// privateState reads and writes a response's private state.
type privateState interface {
	shared.PrivateGetter
	shared.PrivateSetter
}
