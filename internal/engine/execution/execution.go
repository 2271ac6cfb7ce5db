// Package execution runs the execution phase machines (ARCHITECTURE.md,
// "Execution flow and the classes A–E"): the
// install flow (Init: create/update deploy items, delete orphans first;
// Progressing: trigger items along their DAG; Completing) and the delete
// flow (InitDelete; Deleting in reverse DAG order). Deploy items are
// applied and deleted through the deployer registry of the job.
package execution

import (
	"fmt"
	"io/fs"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/job"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// Spec is what the parent installation templated for its execution.
type Spec struct {
	// Path is the installation's path; item IDs are Path + "/" + name.
	Path    string
	Items   []api.DeployItemTemplate
	Targets snapshot.TargetImports
	// OrphanTargets are the previous job's targets: orphaned items are
	// deleted against the target they were deployed to, even when the
	// import that provided it is gone.
	OrphanTargets snapshot.TargetImports
	// Files is the blueprint filesystem, handed to deployers.
	Files fs.FS
	// WriteOnly are the installation's write-only forms: item config
	// hashes are their fingerprints, an item holding one is applied also
	// when updateOnChangeOnly (its hash cannot say it changed), and its
	// deployer is told (deployer.Item.WriteOnly).
	WriteOnly fingerprint.Forms
	// Recorded says the items are recorded configurations, not rendered
	// ones (Engine.Replay): an item whose write-only values were masked
	// where it was recorded (snapshot.DeployItem.Masked) no longer says
	// what to deploy, so it fails instead of deploying the mask.
	Recorded bool
}

// run is one execution's flow in one job. Only its goroutine touches exec;
// item workers get copies and report back over a channel.
type run struct {
	j    *job.Job
	spec Spec
	exec *snapshot.Execution
}

// Run runs the install flow for job j, starting from prev (nil for a new
// execution). The returned execution is always non-nil and finished with
// the job; the error names the execution, the phase and the failed items.
func Run(j *job.Job, spec Spec, prev *snapshot.Execution) (*snapshot.Execution, error) {
	r := &run{j: j, spec: spec, exec: prev.Clone()}
	if r.exec == nil {
		r.exec = &snapshot.Execution{}
	}
	r.exec.JobID, r.exec.Phase, r.exec.LastError = j.ID, api.ExecutionPhaseInit, nil
	m := installMachine(r, j.Backoff, r.logTransition)
	m.Name = "execution " + spec.Path
	final, err := m.Run(j.Context(), api.ExecutionPhaseInit)
	r.finish(final, err, snapshot.OperationReconcile)
	return r.exec, err
}

// installSteps are the phases of the install flow; the table below wires
// them, tests script them.
type installSteps interface {
	init() error
	progress() error
	complete() error
}

func installMachine(s installSteps, b phase.Backoff, on func(from, to api.ExecutionPhase)) *phase.Machine[api.ExecutionPhase] {
	return phase.Sequence([]phase.Step[api.ExecutionPhase]{
		{Phase: api.ExecutionPhaseInit, Run: s.init},
		{Phase: api.ExecutionPhaseProgressing, Run: s.progress},
		{Phase: api.ExecutionPhaseCompleting, Run: s.complete},
	}, api.ExecutionPhaseSucceeded, api.ExecutionPhaseFailed, b, on)
}

// init checks that every item's target exists and its deployer accepts
// its configuration, deletes orphaned items
// (those no longer in the spec, or whose type changed) and then creates or
// updates the items of the spec. The templates come from a rendered
// blueprint, which validated them (blueprint.Render). init is idempotent,
// so a transient error may repeat it.
func (r *run) init() error {
	if r.j.Interrupted() {
		return r.j.InterruptError()
	}
	for _, t := range r.spec.Items {
		target, err := r.spec.Targets.Select(t.Target)
		if err != nil {
			return failure.NewTerminal("TargetNotFound", fmt.Errorf("deploy item %s/%s: %w", r.spec.Path, t.Name, err))
		}
		if err := CheckTarget(r.j.ProviderRefs, target, r.spec.Path+"/"+t.Name); err != nil {
			return err
		}
		// The plan checked the items it could render; a subinstallation
		// rendered only now is checked here, before anything is deployed.
		if err := r.j.Registry.Validate(t.Type, t.Config); err != nil {
			return fmt.Errorf("deploy execution %q: deploy item %s/%s: %w", t.Execution, r.spec.Path, t.Name, err)
		}
	}
	wanted := make(map[string]api.DeployItemTemplate, len(r.spec.Items))
	for _, t := range r.spec.Items {
		wanted[t.Name] = t
	}
	var orphans []string
	for _, it := range r.exec.DeployItems {
		// An item whose type or target changed is replaced: its old
		// deployer removes what it deployed from where it deployed it;
		// the new one must not inherit a foreign provider status.
		if t, ok := wanted[it.Name]; !ok || t.Type != it.Type || r.movesAway(it, t) {
			orphans = append(orphans, it.Name)
		}
	}
	if len(orphans) > 0 {
		orphanRun := &run{j: r.j, spec: r.spec, exec: r.exec}
		orphanRun.spec.Targets = r.spec.OrphanTargets
		if err := orphanRun.deleteItems(orphans, deployer.DeleteOptions{}); err != nil {
			return fmt.Errorf("deleting orphaned deploy items: %w", err)
		}
	}
	byName := r.itemsByName()
	items := make([]*snapshot.DeployItem, 0, len(r.spec.Items))
	for _, t := range r.spec.Items {
		it := byName[t.Name]
		if it == nil {
			it = &snapshot.DeployItem{ID: r.spec.Path + "/" + t.Name, Name: t.Name, Phase: api.DeployItemPhaseInit}
		}
		it.Type, it.Target, it.DependsOn, it.Config = t.Type, t.Target, t.DependsOn, t.Config
		it.ConfigHash = fingerprint.Encoded(t.Config, r.spec.WriteOnly) // rendered: json.Marshal output
		it.Timeout, it.UpdateOnChangeOnly = t.Timeout, t.UpdateOnChangeOnly
		items = append(items, it)
	}
	r.exec.DeployItems = items
	return nil
}

// movesAway reports whether the template sends an existing item to
// another destination than the one it was applied to
// (snapshot.SameDestination). An item from a snapshot written before
// targets were recorded per item gets the target the previous job's
// imports selected for it, which is where it was applied.
func (r *run) movesAway(it *snapshot.DeployItem, t api.DeployItemTemplate) bool {
	if it.AppliedTarget == nil && len(it.ProviderStatus) > 0 {
		if old, err := r.spec.OrphanTargets.Select(it.Target); err == nil && old != nil {
			it.AppliedTarget = old
		}
	}
	if it.AppliedTarget == nil {
		return false // nothing was deployed anywhere
	}
	now, err := r.spec.Targets.Select(t.Target)
	if err != nil {
		return false // init fails on it before anything moves
	}
	moves := !snapshot.SameDestination(it.AppliedTarget, now)
	if moves {
		r.j.Log.Info("deploy item target changed: deleting it from the old target first", "deployItem", it.ID, "jobID", r.j.ID)
	}
	return moves
}

// complete has nothing left to do: the items' exports are in the snapshot
// and the installation reads them from there.
func (r *run) complete() error { return nil }

// finish makes the execution finished with the job. On interrupt every
// item not yet finished with the job is Failed too, so nothing in the tree
// is left unfinished.
func (r *run) finish(final api.ExecutionPhase, err error, operation string) {
	r.exec.Phase = final
	r.exec.JobIDFinished = r.j.ID
	if err != nil {
		r.exec.LastError = snapshot.NewError(operation, err)
	}
	if r.j.Interrupted() {
		r.exec.MarkInterrupted(r.j.ID, operation)
	}
}

func (r *run) itemsByName() map[string]*snapshot.DeployItem {
	m := make(map[string]*snapshot.DeployItem, len(r.exec.DeployItems))
	for _, it := range r.exec.DeployItems {
		m[it.Name] = it
	}
	return m
}

func (r *run) logTransition(from, to api.ExecutionPhase) {
	r.j.Log.Info("execution phase", "execution", r.spec.Path, "from", string(from), "to", string(to), "jobID", r.j.ID)
}
