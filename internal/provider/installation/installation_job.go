package installation

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// Where the resource meets package instance, which runs its jobs: the
// Terraform model becomes an engine.RootSpec (installation_spec.go), the
// job's snapshot an installationOutcome (installation_state.go). Refresh
// is in installation_drift.go, the migration's adoption job in
// installation_migrate.go.

// apply runs one install job as resource instance inst. It returns a nil
// outcome only when nothing ran: the configuration could not be turned
// into a spec and no snapshot was recorded before, or a lost state's
// inventory could not be read. pins are what the plan's previews were
// made with (installation_pins.go).
func (d *InstallationData) apply(ctx context.Context, m shared.InstallationModel, prevBytes []byte, inst string, key shared.ConfigHashKey,
	pins map[string]deployer.Pins) (out *installationOutcome, err error) {
	defer func() { scrubOutcome(d.Security, out) }()
	prev, err := instance.Decode(prevBytes)
	if err != nil {
		return nil, err
	}
	// Apply reads the component versions at the digests the plan showed.
	spec, lsContext, err := shared.RootSpecOf(ctx, d.Inputs(shared.PinsOf(m.ComponentDigests, true)), m)
	if err != nil {
		if prev != nil {
			// Keep what is deployed recorded as it was.
			out, encErr := outcomeOf(prev, prevBytes)
			return out, errors.Join(err, encErr)
		}
		return nil, err
	}
	runner := d.InstancesIn(ctx, lsContext)
	runner.SignKey = key.ReconcileKey()
	runner.Pins = pins
	runner.Keep = keepOf(ctx, d.Security, withDigests(m, spec))
	runner.Mask = d.Security.MaskKept // what the inventory keeps
	job, jobErr := runner.Apply(ctx, spec, prev, inst)
	if job.Snapshot == nil {
		return nil, jobErr
	}
	d.Security.MaskSnapshot(job.Snapshot) // what private state keeps
	sensitive := sensitiveExportNames(ctx, m.SensitiveExports)
	d.Security.LearnSnapshot(job.Start, sensitive)
	d.Security.LearnSnapshot(job.Snapshot, sensitive)
	out, encErr := outcomeOf(job.Snapshot, prevBytes)
	out.ignored = job.Ignored
	digestErr := out.renderedFrom(spec)
	if job.Replayable && digestErr == nil {
		out.renderInputs = d.RenderInputsOf(spec, out.blueprintDigest)
	}
	return out, errors.Join(jobErr, encErr, digestErr)
}

// delete runs the delete flow; a nil outcome means everything is gone.
// ignored are inventory Secrets that a replaced tainted instance's
// destroy did not use (taintedState).
func (d *InstallationData) delete(ctx context.Context, m shared.InstallationModel, snapBytes []byte, inst string, key shared.ConfigHashKey, prov shared.Provenance) (out *installationOutcome, ignored []string, err error) {
	defer func() { scrubOutcome(d.Security, out) }()
	prev, err := instance.Decode(snapBytes)
	withoutUninstall := m.DeleteWithoutUninstall.ValueBool() || shared.ManifestDeletesWithoutUninstall(m)
	if err != nil {
		return nil, nil, err
	}
	if prev.Empty() {
		if withoutUninstall {
			return nil, nil, nil // only forgetting was asked for
		}
		if err := lostSnapshotError(ctx, m); err != nil || !replacedTainted(m) {
			return nil, nil, err
		}
		if prev, inst, ignored, err = d.taintedState(ctx, m); err != nil || prev.Empty() {
			return nil, ignored, err
		}
		// Read from the inventory: its targets are not the user's (the
		// state's own were trusted by taintedState).
		prov = shared.Provenance{}
	}
	d.Security.TrustSnapshot(m, prev, prov)
	d.Security.LearnSnapshot(prev, sensitiveExportNames(ctx, m.SensitiveExports))
	runner := d.Instances(ctx)
	runner.SignKey = key.ReconcileKey()
	runner.Keep = keepOf(ctx, d.Security, m)
	runner.Mask = d.Security.MaskKept
	snap, err := runner.Delete(ctx, prev, inst, engine.DeleteOptions{WithoutUninstall: withoutUninstall})
	if snap.Empty() {
		return nil, ignored, err
	}
	d.Security.MaskSnapshot(snap) // what private state keeps
	out, encErr := outcomeOf(snap, snapBytes)
	return out, ignored, errors.Join(err, encErr)
}

// taintedState is what the destroy of a replaced tainted instance must
// delete: it arrives without its private data (lostSnapshotError), so
// without snapshot and instance, but its state still has the target
// imports it deployed through, where its inventory records what it
// deployed. Its last job's ID stands in for the instance: job and
// instance IDs are UUIDv7, so everything a newer instance (the
// create_before_destroy replacement) adopted carries a later ID and is
// left alone (deployer.AdoptedBy).
func (d *InstallationData) taintedState(ctx context.Context, m shared.InstallationModel) (*engine.Snapshot, string, []string, error) {
	hcl, _, err := shared.HclForm(ctx, m, d.Host)
	if err != nil {
		return nil, "", nil, err
	}
	imports, err := shared.ReadImports(ctx, hcl, d.Host)
	if err != nil && len(imports.Targets)+len(imports.TargetLists)+len(imports.TargetMaps) == 0 {
		// Only the targets matter here: a data import that cannot be
		// read any more must not block the replacement.
		return nil, "", nil, fmt.Errorf("reading the target imports of the failed installation %s from its state: %w", shared.RootName(m), err)
	}
	d.Security.TrustImports(ctx, hcl, imports) // the inventory is read through them
	inst := m.JobID.ValueString()
	snap, ignored, err := d.Instances(ctx).Recorded(ctx, shared.RootName(m), inst, instance.Targets(imports))
	return snap, inst, ignored, err
}

// lostSnapshotError refuses to report a destroy as done when the state
// lists deploy items but the private snapshot that says what they
// deployed, and where, is missing (a state edited or copied without its
// private data): success would orphan everything they deployed. State
// alone (names, types, target selectors) cannot say where to delete.
func lostSnapshotError(ctx context.Context, m shared.InstallationModel) error {
	if m.Phase.IsNull() {
		// Only an import leaves the phase unset. What the installation
		// deployed is recorded in its inventory in the target clusters,
		// which only an apply can find (through the configuration's
		// target imports): success here would orphan all of it.
		return fmt.Errorf("installation %s was imported but not applied since, so the provider does not know yet "+
			"what it deployed (its inventory is read through the configuration's target imports at the next apply); "+
			"nothing was deleted. Run terraform apply first and destroy then, or run terraform state rm to forget the "+
			"installation and leave its objects", shared.RootName(m))
	}
	if replacedTainted(m) {
		// When a tainted instance (a failed create) is replaced, its
		// destroy arrives without its snapshot: Terraform plans the
		// replacement as if nothing existed and passes that plan's
		// (empty) private data to the destroy half. (A plain destroy of
		// the tainted instance gets its private data.) Its inventory
		// says what it deployed (taintedState); failing here would block
		// every such replacement.
		return nil
	}
	rows, ok := shared.StateRows(m)
	if !ok || len(rows) == 0 {
		return nil // nothing was ever recorded as deployed
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.Path()
	}
	return fmt.Errorf("the engine snapshot of installation %s is missing from the state's private data, so what its "+
		"%d deploy items (%s) deployed, and to which clusters, is unknown; nothing was deleted. Restore the state "+
		"with its private data from a backup and destroy again, or set delete_without_uninstall = true (or run "+
		"terraform state rm) to forget the installation and remove its objects yourself",
		shared.RootName(m), len(rows), strings.Join(ids, ", "))
}

// replacedTainted reports whether m, without a snapshot, is the destroy
// half of a replaced tainted instance: only a failed job leaves phase
// Failed in a state whose private data Terraform then drops.
func replacedTainted(m shared.InstallationModel) bool {
	return m.Phase.ValueString() == string(api.InstallationPhaseFailed)
}

// warnIgnoredInventories warns of each Secret that had the name of the
// installation's inventory but was not one it wrote: someone may have
// planted it to make a job delete what it lists.
func warnIgnoredInventories(diags shared.Diagnostics, sec *shared.Security, ignored []string) {
	for _, msg := range ignored {
		shared.AddWarning(diags, sec, "Installation Inventory Ignored", errors.New(msg))
	}
}
