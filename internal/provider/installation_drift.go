package provider

import (
	"context"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// Refresh's drift check: what the engine's Drift needs from state and
// private state, and what it returns in the resource's terms.

// drift returns the drifted deploy items by "<installation>/<name>". The
// blueprint named in state gives deployers the files they may need (a
// local Helm chart); it is loaded only when such an item was deployed
// (driftReadsFiles), and when it cannot be loaded any more, only those
// deployers report an error.
//
// marked is the snapshot with the drifted items marked (snapshot
// MarkDrifted), for private state, so that the apply repairs them even
// when they are updateOnChangeOnly; nil when nothing needed marking.
func (d *providerData) drift(ctx context.Context, m installationModel, snapBytes []byte) (_ map[string]string, marked []byte, err error) {
	ctx = withSecurity(ctx, d.security)
	defer func() { err = scrubError(ctx, err) }()
	snap, err := decodeSnapshot(snapBytes)
	if err != nil || snap.Empty() {
		return nil, nil, err
	}
	securityOf(ctx).trustSnapshot(snap)
	securityOf(ctx).learnSnapshot(snap, sensitiveExportNames(ctx, m.SensitiveExports))
	// The registry (with the Context's credentials) reads the component
	// versions at the digests that were deployed; Helm items in manifest
	// mode render their charts from them again.
	var bp *blueprint.Blueprint
	var comp *blueprint.Component
	if driftReadsFiles(snap) {
		bp, comp, ctx = d.driftBlueprint(ctx, m)
	}
	e := d.engineFor(ctx)
	// The inventory's recorder tells each item its cluster's ApplySet,
	// whose members one list per kind reads for all items.
	e.Deployers = inventory.NewRecorder(d.pool, snap.Root.Path, "").Wrap(e.Deployers)
	drifted, err := e.Drift(ctx, snap, bp, comp)
	if err != nil {
		return nil, nil, err
	}
	out := make(map[string]string, len(drifted))
	ids := make([]string, 0, len(drifted))
	for _, it := range drifted {
		// The reason becomes the item's last_error in state.
		out[it.ID] = securityOf(ctx).secrets.String(it.Reason)
		ids = append(ids, it.ID)
	}
	recorded := snapBytes
	if snap.MarkDrifted(ids) {
		if marked, err = snapshot.Marshal(snap); err != nil {
			return nil, nil, err
		}
		recorded = marked
	}
	refreshed.put(recorded, snap.Clone()) // for the ModifyPlan that follows
	return out, marked, nil
}

// driftBlueprint loads the blueprint and component descriptor named in
// state, for drift checks of deployers that read blueprint files; nil
// when they cannot be loaded any more. The returned context carries the
// installation's Context and the registry.
func (d *providerData) driftBlueprint(ctx context.Context, m installationModel) (*blueprint.Blueprint, *blueprint.Component, context.Context) {
	hcl, _, err := hclForm(withRegistry(ctx, d), m) // a manifest may read its objects from the host
	if err != nil {
		return nil, nil, ctx
	}
	withContext, err := withInstallationContext(withRegistry(withComponentPins(ctx, m.ComponentDigests, true), d), hcl)
	if err != nil {
		return nil, nil, ctx
	}
	bp, comp, err := resolveBlueprint(withContext, hcl.Blueprint, hcl.ComponentDescriptor)
	if err != nil {
		return nil, nil, withContext
	}
	return bp, comp, withContext
}

// driftReadsFiles reports whether the drift check of snap needs the
// blueprint: only the deployers of other types than kubernetes-manifest
// (and the mock) may read its files (a Helm chart in the blueprint or
// the component). Manifest items compare what their status records, so a
// refresh of manifest-only installations neither reads nor parses the
// blueprint (and its component from a registry) again: with 50
// installations that was 50 loads per refresh, ~5 % of its CPU.
func driftReadsFiles(snap *engine.Snapshot) bool {
	for _, in := range snap.Installations() {
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			if it.Phase == api.DeployItemPhaseSucceeded && it.Type != manifest.Type && it.Type != mock.Type {
				return true
			}
		}
	}
	return false
}
