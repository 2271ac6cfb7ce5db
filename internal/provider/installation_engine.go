package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// This file and installation_drift.go (refresh) are where the resource
// meets the engine: they turn the Terraform model into an
// engine.RootSpec, run jobs and drift checks, and turn snapshots back into
// an installationOutcome.

// engineFor returns the engine with progress logged to this request's tflog.
func (d *providerData) engineFor(ctx context.Context) *engine.Engine {
	e := *d.engine
	e.Log = tflogLogger{ctx: ctx}
	return &e
}

// hostOrNil is the host cluster, nil before Configure ran.
func (d *providerData) hostOrNil() *hostCluster {
	if d == nil {
		return nil
	}
	return d.host
}

// recordedEngine is engineFor for a job that changes the clusters: its
// deployer calls carry the owning resource instance and are recorded in
// the installation's inventory (package inventory). finish waits for the
// inventory's writes; its error is the job's too.
func (d *providerData) recordedEngine(ctx context.Context, root, instance string) (e *engine.Engine, rec *inventory.Recorder, finish func() error) {
	e = d.engineFor(ctx)
	rec = inventory.NewRecorder(d.pool, root, instance)
	e.Deployers = rec.Wrap(e.Deployers)
	return e, rec, func() error {
		// Also after an interrupt: what was deployed must be recorded.
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), inventoryCloseTimeout)
		defer cancel()
		return rec.Close(ctx)
	}
}

// inventoryCloseTimeout bounds the last inventory writes of a job.
const inventoryCloseTimeout = 30 * time.Second

// inventoryThrough loads root's inventory from the clusters of imports'
// targets.
func (d *providerData) inventoryThrough(ctx context.Context, root string, imports blueprint.Imports) (*engine.Snapshot, error) {
	return inventory.Load(ctx, d.pool, root, importedTargets(imports))
}

// importedTargets are all targets of imports.
func importedTargets(imports blueprint.Imports) []api.Target {
	var targets []api.Target
	for _, t := range imports.Targets {
		targets = append(targets, t)
	}
	for _, l := range imports.TargetLists {
		targets = append(targets, l...)
	}
	for _, m := range imports.TargetMaps {
		for _, t := range m {
			targets = append(targets, t)
		}
	}
	return targets
}

// taintedState is what the destroy of a replaced tainted instance must
// delete: it arrives without its private data (lostSnapshotError), so
// without snapshot and instance, but its state still has the target
// imports it deployed through, where its inventory records what it
// deployed. Its last job's ID stands in for the instance: job and
// instance IDs are UUIDv7, so everything a newer instance (the
// create_before_destroy replacement) adopted carries a later ID and is
// left alone (deployer.AdoptedBy).
func (d *providerData) taintedState(ctx context.Context, m installationModel) (*engine.Snapshot, string, error) {
	hcl, _, err := hclForm(ctx, m)
	if err != nil {
		return nil, "", err
	}
	imports, err := readImports(ctx, hcl, d.host)
	if err != nil && len(imports.Targets)+len(imports.TargetLists)+len(imports.TargetMaps) == 0 {
		// Only the targets matter here: a data import that cannot be
		// read any more must not block the replacement.
		return nil, "", fmt.Errorf("reading the target imports of the failed installation %s from its state: %w", rootName(m), err)
	}
	snap, err := d.inventoryThrough(ctx, rootName(m), imports)
	return snap, m.JobID.ValueString(), err
}

// settleLostState ends a job that started from a lost state: what the
// inventories it met record but it did not deploy again is deleted when
// the job succeeded (a failed job deletes nothing more), and whatever is
// still deployed is added to snap, so the state records it.
func settleLostState(ctx context.Context, e *engine.Engine, rec *inventory.Recorder, snap *engine.Snapshot, deleteLeftovers bool) error {
	left := rec.Settle(snap)
	if left.Empty() {
		return nil
	}
	var err error
	if deleteLeftovers {
		if left, err = e.Delete(ctx, left, engine.DeleteOptions{}); err != nil {
			err = fmt.Errorf("deleting what the installation inventory records but the blueprint no longer renders: %w", err)
		}
	}
	inventory.Merge(snap, left)
	return err
}

// engineOrNil is the engine, nil before Configure ran.
func (d *providerData) engineOrNil() *engine.Engine {
	if d == nil {
		return nil
	}
	return d.engine
}

// rootName is the root installation's path, which prefixes every deploy
// item ID and so the ownership labels in the clusters: unique per
// Terraform installation resource.
func rootName(m installationModel) string {
	ns := m.Namespace.ValueString()
	if ns == "" || ns == "default" {
		return m.Name.ValueString()
	}
	return ns + "." + m.Name.ValueString()
}

// rootSpec builds the engine's input. host reads Secret and ConfigMap
// imports; it is nil only for the data source (errHostImportsAtPlan).
func rootSpec(ctx context.Context, m installationModel, host *hostCluster) (engine.RootSpec, error) {
	spec := engine.RootSpec{Name: rootName(m)}
	m, _, err := hclForm(ctx, m) // a manifest becomes the HCL form's attributes
	if err != nil {
		return spec, err
	}
	ctx, err = withInstallationContext(ctx, m)
	if err != nil {
		return spec, err
	}
	bp, component, err := resolveBlueprint(ctx, m.Blueprint, m.ComponentDescriptor)
	if err != nil {
		return spec, err
	}
	// The request's context bounds rendering: cancelling plan or apply
	// (or its timeout) stops a runaway template.
	spec.Blueprint, spec.Component = bp.WithContext(ctx), component
	spec.Imports, err = readImports(ctx, m, host)
	securityOf(ctx).trustImports(ctx, m, spec.Imports)
	if err != nil {
		return spec, err
	}
	if spec.ImportDataMappings, err = dataMappings(ctx, m.ImportDataMappings, path.Root("import_data_mappings")); err != nil {
		return spec, err
	}
	if spec.ExportDataMappings, err = dataMappings(ctx, m.ExportDataMappings, path.Root("export_data_mappings")); err != nil {
		return spec, err
	}
	return spec, nil
}

// resolveBlueprint loads the blueprint and component descriptor that the
// `blueprint` and `component_descriptor` attributes name; errors point at
// the attribute to fix. The installation resource and the data sources
// share it.
func resolveBlueprint(ctx context.Context, bpAttr, cdAttr types.Object) (*blueprint.Blueprint, *blueprint.Component, error) {
	src, err := blueprintSource(ctx, bpAttr)
	if err != nil {
		return nil, nil, err
	}
	comp, err := componentSource(ctx, cdAttr)
	if err != nil {
		return nil, nil, err
	}
	if src.Dir != "" {
		if _, statErr := os.Stat(src.Dir); statErr != nil {
			return nil, nil, attrErr(path.Root("blueprint").AtName("path"), fmt.Errorf("blueprint directory: %w", statErr))
		}
	}
	bp, component, err := blueprint.Resolve(src, comp)
	if err != nil {
		return nil, nil, attrErr(inputPath(err), err)
	}
	componentsFrom(ctx).remember(component)
	return bp, component, nil
}

// apply runs one install job. It returns a nil outcome only when nothing
// ran because the configuration could not be turned into a spec.
func (d *providerData) apply(ctx context.Context, m installationModel, prevBytes []byte, instance string) (out *installationOutcome, err error) {
	ctx = withSecurity(ctx, d.security)
	defer func() { scrubOutcome(ctx, out); err = scrubError(ctx, err) }()
	prev, err := decodeSnapshot(prevBytes)
	if err != nil {
		return nil, err
	}
	// Apply reads the component versions at the digests the plan showed.
	spec, err := rootSpec(withRegistry(withComponentPins(ctx, m.ComponentDigests, true), d), m, d.host)
	if err != nil {
		if prev != nil {
			// Keep what is deployed recorded as it was.
			out, encErr := outcomeOf(prev, prevBytes)
			return out, errors.Join(err, encErr)
		}
		return nil, err
	}
	lost := prev == nil
	e, rec, finish := d.recordedEngine(ctx, spec.Name, instance)
	if lost {
		// A lost state (or an import): start from what the inventory
		// records in the clusters of the target imports. Items deployed
		// to other clusters (through targets a subinstallation exports,
		// or a mapping makes) are found as the job reaches their
		// clusters (AdoptRecorded, settleLostState). The job's recorder
		// reads the parents, so its first deployment to each of their
		// clusters does not read them again.
		rec.AdoptRecorded()
		if prev, err = rec.Load(ctx, importedTargets(spec.Imports)); err != nil {
			return nil, err
		}
	}
	snap, jobErr := e.Apply(ctx, spec, prev)
	if lost {
		jobErr = errors.Join(jobErr, settleLostState(ctx, e, rec, snap, jobErr == nil))
	}
	sensitive := sensitiveExportNames(ctx, m.SensitiveExports)
	securityOf(ctx).learnSnapshot(prev, sensitive)
	securityOf(ctx).learnSnapshot(snap, sensitive)
	jobErr = errors.Join(jobErr, finish())
	out, encErr := outcomeOf(snap, prevBytes)
	jobErr = errors.Join(jobErr, encErr)
	out.components = componentDigests(spec.Component)
	if out.blueprintDigest, err = blueprintDigest(spec.Blueprint, spec.Component); err != nil {
		jobErr = errors.Join(jobErr, fmt.Errorf("hashing the blueprint's files: %w", err))
	}
	if jobErr == nil && snap.RootPhase() != api.InstallationPhaseSucceeded {
		jobErr = fmt.Errorf("installation %s ended in phase %s", spec.Name, snap.RootPhase())
	}
	if jobErr != nil {
		jobErr = failureReport(snap, jobErr)
	}
	return out, jobErr
}

// delete runs the delete flow; a nil outcome means everything is gone.
func (d *providerData) delete(ctx context.Context, m installationModel, snapBytes []byte, instance string) (out *installationOutcome, err error) {
	ctx = withSecurity(ctx, d.security)
	defer func() { scrubOutcome(ctx, out); err = scrubError(ctx, err) }()
	prev, err := decodeSnapshot(snapBytes)
	withoutUninstall := m.DeleteWithoutUninstall.ValueBool() || manifestDeletesWithoutUninstall(m)
	if err != nil {
		return nil, err
	}
	if prev.Empty() {
		if withoutUninstall {
			return nil, nil // only forgetting was asked for
		}
		if err := lostSnapshotError(ctx, m); err != nil || !replacedTainted(m) {
			return nil, err
		}
		if prev, instance, err = d.taintedState(ctx, m); err != nil || prev.Empty() {
			return nil, err
		}
	}
	securityOf(ctx).trustSnapshot(prev)
	securityOf(ctx).learnSnapshot(prev, sensitiveExportNames(ctx, m.SensitiveExports))
	e, _, finish := d.recordedEngine(ctx, prev.Root.Path, instance)
	snap, err := e.Delete(ctx, prev, engine.DeleteOptions{WithoutUninstall: withoutUninstall})
	err = errors.Join(err, finish())
	if snap.Empty() {
		return nil, err
	}
	if err == nil {
		err = fmt.Errorf("installation %s ended in phase %s", prev.Root.Path, snap.RootPhase())
	}
	out, encErr := outcomeOf(snap, snapBytes)
	return out, errors.Join(failureReport(snap, err), encErr)
}

// lostSnapshotError refuses to report a destroy as done when the state
// lists deploy items but the private snapshot that says what they
// deployed, and where, is missing (a state edited or copied without its
// private data): success would orphan everything they deployed. State
// alone (names, types, target selectors) cannot say where to delete.
func lostSnapshotError(ctx context.Context, m installationModel) error {
	if m.Phase.IsNull() {
		// Only an import leaves the phase unset. What the installation
		// deployed is recorded in its inventory in the target clusters,
		// which only an apply can find (through the configuration's
		// target imports): success here would orphan all of it.
		return fmt.Errorf("installation %s was imported but not applied since, so the provider does not know yet "+
			"what it deployed (its inventory is read through the configuration's target imports at the next apply); "+
			"nothing was deleted. Run terraform apply first and destroy then, or run terraform state rm to forget the "+
			"installation and leave its objects", rootName(m))
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
	rows, ok := stateRows(m)
	if !ok || len(rows) == 0 {
		return nil // nothing was ever recorded as deployed
	}
	ids := make([]string, len(rows))
	for i, r := range rows {
		ids[i] = r.path()
	}
	return fmt.Errorf("the engine snapshot of installation %s is missing from the state's private data, so what its "+
		"%d deploy items (%s) deployed, and to which clusters, is unknown; nothing was deleted. Restore the state "+
		"with its private data from a backup and destroy again, or set delete_without_uninstall = true (or run "+
		"terraform state rm) to forget the installation and remove its objects yourself",
		rootName(m), len(rows), strings.Join(ids, ", "))
}

// replacedTainted reports whether m, without a snapshot, is the destroy
// half of a replaced tainted instance: only a failed job leaves phase
// Failed in a state whose private data Terraform then drops.
func replacedTainted(m installationModel) bool {
	return m.Phase.ValueString() == string(api.InstallationPhaseFailed)
}

// decodeSnapshot reads the snapshot in private state; the one the refresh
// of the same plan decoded from these bytes is used when it is held.
func decodeSnapshot(b []byte) (*engine.Snapshot, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if s := refreshed.take(b); s != nil {
		return s, nil
	}
	s, err := snapshot.Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("reading the engine snapshot from private state: %w", err)
	}
	return s, nil
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
		snapshot: b, phase: string(s.RootPhase()), jobID: s.JobID(), jobIDFinished: s.JobIDFinished(),
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
			row := deployItemRow{Installation: in.Path, Name: it.Name, Type: it.Type, Target: selectorString(it.Target),
				DependsOn: orEmptyList(it.DependsOn), Phase: string(it.Phase), ConfigHash: it.ConfigHash}
			if it.LastError != nil {
				row.LastError = it.LastError.Message
			}
			out.items = append(out.items, row)
		}
	}
	sortRows(out.items)
	return out, err
}

func orEmptyList(l []string) []string {
	if l == nil {
		return []string{}
	}
	return l
}

// selectorString shows a target selector as HCL-ish text: "cluster",
// "clusters[0]", "regions[\"eu\"]".
func selectorString(s *api.TargetSelector) string {
	switch {
	case s == nil:
		return ""
	case s.Index != nil:
		return fmt.Sprintf("%s[%d]", s.Import, *s.Index)
	case s.Key != "":
		return fmt.Sprintf("%s[%q]", s.Import, s.Key)
	case s.Import != "":
		return s.Import
	}
	return s.Name
}

// failureReport lists every failed deploy item with its lastError under
// the job's error, so the apply output says what to fix.
func failureReport(s *engine.Snapshot, err error) error {
	var lines []string
	for _, in := range s.Installations() {
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			if it.LastError != nil && (it.Phase == api.DeployItemPhaseFailed || it.Phase == api.DeployItemPhaseDeleteFailed) {
				lines = append(lines, fmt.Sprintf("- deploy item %s (%s): %s", it.ID, it.Phase, it.LastError.Message))
			}
		}
	}
	if len(lines) == 0 {
		return err
	}
	return fmt.Errorf("%w\n\nFailed deploy items:\n%s", err, strings.Join(lines, "\n"))
}
