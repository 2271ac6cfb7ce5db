package installation

import (
	"context"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// Refresh's drift check: what package instance's Drift needs from state
// and private state, and what it returns in the resource's terms.

// drift returns the drifted deploy items by "<installation>/<name>", each
// with the reason that becomes its last error in state. The blueprint
// named in state gives deployers the files they may need (a local Helm
// chart); it is loaded only when such an item was deployed
// (instance.Runner.DriftReadsFiles), and when it cannot be loaded any more, only
// those deployers report an error.
//
// prov says who wrote m and the snapshot (shared.Provenance): after an
// import, the refresh trusts none of its targets.
//
// marked is the snapshot with the drifted items marked, for private
// state; nil when nothing needed marking (instance.Drifted).
func (d *InstallationData) drift(ctx context.Context, m shared.InstallationModel, snapBytes []byte, prov shared.Provenance) (_ map[string]string, marked []byte, err error) {
	snap, err := instance.Decode(snapBytes)
	if err != nil {
		return nil, nil, err
	}
	return d.driftDecoded(ctx, m, snap, snapBytes, prov)
}

// driftDecoded is drift of snap, decoded from snapBytes; it may mark snap.
func (d *InstallationData) driftDecoded(ctx context.Context, m shared.InstallationModel, snap *engine.Snapshot, snapBytes []byte, prov shared.Provenance) (_ map[string]string, marked []byte, err error) {
	if snap.Empty() {
		return nil, nil, nil
	}
	d.Security.TrustSnapshot(m, snap, prov)
	d.Security.LearnSnapshot(snap, sensitiveExportNames(ctx, m.SensitiveExports))
	var bp *blueprint.Blueprint
	var comp *blueprint.Component
	runner := d.Instances(ctx)
	if runner.DriftReadsFiles(snap) {
		var lsContext hostaccess.ContextRef
		bp, comp, lsContext = d.driftBlueprint(ctx, m)
		runner = d.InstancesIn(ctx, lsContext) // Helm charts are read again
	}
	drifted, err := runner.Drift(ctx, snap, snapBytes, bp, comp)
	if err != nil {
		return nil, nil, err
	}
	out := make(map[string]string, len(drifted.Items))
	for _, it := range drifted.Items {
		// The reason becomes the item's last_error in state.
		out[it.ID] = d.Security.Scrub(it.Reason)
	}
	return out, drifted.Marked, nil
}

// driftBlueprint loads the blueprint and component descriptor named in
// state, for drift checks of deployers that read blueprint files; nil
// when they cannot be loaded any more. The registry (with the Context's
// credentials) reads the component versions at the digests that were
// deployed; Helm items in manifest mode render their charts from them
// again.
func (d *InstallationData) driftBlueprint(ctx context.Context, m shared.InstallationModel) (*blueprint.Blueprint, *blueprint.Component, hostaccess.ContextRef) {
	return d.loadBlueprintNoting(ctx, m, shared.PinsOf(m.ComponentDigests, true), nil)
}

// loadBlueprintNoting is driftBlueprint with the component versions read
// at pins; notes (may be nil) learns of registries answered from the cache.
func (d *InstallationData) loadBlueprintNoting(ctx context.Context, m shared.InstallationModel, pins component.Pins,
	notes *shared.RegistryNotes) (*blueprint.Blueprint, *blueprint.Component, hostaccess.ContextRef) {
	in := d.Inputs(pins)
	in.Notes = notes
	hcl, _, err := shared.HclForm(ctx, m, in.Host) // a manifest may read its objects from the host
	if err != nil {
		return nil, nil, hostaccess.ContextRef{None: true}
	}
	lsContext, err := shared.ContextRefOf(hcl)
	if err != nil {
		return nil, nil, hostaccess.ContextRef{None: true}
	}
	if in.Scope, err = shared.InstallationScope(ctx, in.Components, hcl); err != nil {
		return nil, nil, lsContext
	}
	bp, comp, err := shared.ResolveBlueprint(ctx, in, hcl.Blueprint, hcl.ComponentDescriptor)
	if err != nil {
		return nil, nil, lsContext
	}
	return bp, comp, lsContext
}
