package provider

import (
	"context"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
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
// marked is the snapshot with the drifted items marked, for private
// state; nil when nothing needed marking (instance.Drifted).
func (d *providerData) drift(ctx context.Context, m installationModel, snapBytes []byte) (_ map[string]string, marked []byte, err error) {
	snap, err := instance.Decode(snapBytes)
	if err != nil || snap.Empty() {
		return nil, nil, err
	}
	d.security.trustSnapshot(m, snap)
	d.security.learnSnapshot(snap, sensitiveExportNames(ctx, m.SensitiveExports))
	var bp *blueprint.Blueprint
	var comp *blueprint.Component
	runner := d.instances(ctx)
	if runner.DriftReadsFiles(snap) {
		var lsContext contextRef
		bp, comp, lsContext = d.driftBlueprint(ctx, m)
		runner = d.instancesIn(ctx, lsContext) // Helm charts are read again
	}
	drifted, err := runner.Drift(ctx, snap, snapBytes, bp, comp)
	if err != nil {
		return nil, nil, err
	}
	out := make(map[string]string, len(drifted.Items))
	for _, it := range drifted.Items {
		// The reason becomes the item's last_error in state.
		out[it.ID] = d.security.scrub(it.Reason)
	}
	return out, drifted.Marked, nil
}

// driftBlueprint loads the blueprint and component descriptor named in
// state, for drift checks of deployers that read blueprint files; nil
// when they cannot be loaded any more. The registry (with the Context's
// credentials) reads the component versions at the digests that were
// deployed; Helm items in manifest mode render their charts from them
// again.
func (d *providerData) driftBlueprint(ctx context.Context, m installationModel) (*blueprint.Blueprint, *blueprint.Component, contextRef) {
	in := d.inputs(pinsOf(m.ComponentDigests, true))
	hcl, _, err := hclForm(ctx, m, in.host) // a manifest may read its objects from the host
	if err != nil {
		return nil, nil, contextRef{none: true}
	}
	lsContext, err := contextRefOf(hcl)
	if err != nil {
		return nil, nil, contextRef{none: true}
	}
	if in.scope, err = installationScope(ctx, in.components, hcl); err != nil {
		return nil, nil, lsContext
	}
	bp, comp, err := resolveBlueprint(ctx, in, hcl.Blueprint, hcl.ComponentDescriptor)
	if err != nil {
		return nil, nil, lsContext
	}
	return bp, comp, lsContext
}
