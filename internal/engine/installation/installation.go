// Package installation runs the installation phase machines (ARCHITECTURE.md,
// "Installation flow", "Deletion")
// over a tree of installations: the install flow (Init → ObjectsCreated →
// Progressing → Completing → Succeeded | Failed) and the delete flow
// (InitDelete → TriggerDelete → Deleting → gone | DeleteFailed).
// Subinstallations live in their parent's scope: they import the parent's
// imports and their siblings' exports by name, run in data-flow order (a
// sibling that imports another's export waits for it, independent siblings
// run concurrently) and are deleted in the reverse order.
package installation

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/job"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// Spec is an installation as its parent (or, for the root, the caller)
// defines it.
type Spec struct {
	Path, Name         string
	Blueprint          *blueprint.Blueprint
	Component          *blueprint.Component
	ImportDataMappings map[string]json.RawMessage
	ExportDataMappings map[string]json.RawMessage
	// Imports returns the installation's imports. For a subinstallation it
	// waits until the predecessors finished and fails when one did not
	// succeed (Init); for the root it returns the caller's.
	Imports func() (blueprint.Imports, error)
	// ImportRefs and ExportRefs are the parent-scope names the
	// installation reads and writes, kept for the delete order.
	ImportRefs, ExportRefs []string
	// Source is where a subinstallation's blueprint comes from (nil for
	// the root); recorded for Drift.
	Source *api.SubinstallationBlueprint
	// WriteOnly are the root's write-only forms, which a subinstallation
	// inherits (its imports may carry them): the installation's stored
	// hashes are fingerprints without them (RootSpec.WriteOnly).
	WriteOnly fingerprint.Forms

	// rendering is set when RenderTree rendered the installation already.
	rendering *rendering
}

// run is one installation's install flow in one job. Only its goroutine
// touches node; children report back when they are done.
type run struct {
	j    *job.Job
	spec Spec
	node *snapshot.Installation
	prev *snapshot.Installation

	rendering *rendering
	children  []*child
	execSpec  execution.Spec

	childrenStarted, childrenCollected bool
}

// Run runs the install flow of one installation and its subtree for job j,
// starting from prev (nil for a new installation). The returned node is
// always non-nil and finished with the job, and records what exists.
func Run(j *job.Job, spec Spec, prev *snapshot.Installation) (node *snapshot.Installation, err error) {
	r := &run{j: j, spec: spec, prev: prev}
	defer func() {
		if p := recover(); p != nil {
			node, err = r.node, r.panicked(p)
		}
	}()
	r.node = prev.Clone()
	if r.node == nil {
		r.node = &snapshot.Installation{}
	}
	r.node.Path, r.node.Name = spec.Path, spec.Name
	r.node.JobID, r.node.LastError = j.ID, nil
	r.node.ImportRefs, r.node.ExportRefs, r.node.Blueprint = spec.ImportRefs, spec.ExportRefs, spec.Source
	m := installMachine(r, j.Backoff, logTransition(j, spec.Path))
	m.Name = "installation " + spec.Path
	final, err := m.Run(j.Context(), api.InstallationPhaseInit)
	r.node.Phase, r.node.JobIDFinished = final, j.ID
	if err != nil {
		r.node.LastError = snapshot.NewError(snapshot.OperationReconcile, err)
		if j.Interrupted() {
			// Children that were never triggered finish with the job too.
			r.node.MarkInterrupted(j.ID, snapshot.OperationReconcile)
		}
	}
	return r.node, err
}

// panicked ends a flow that panicked (in a template, a mapping …): the
// installation fails, children already started are awaited so that what
// they recorded is kept, and nothing is left unfinished.
func (r *run) panicked(p any) error {
	err := failure.FromPanic("installation "+r.spec.Path, p)
	r.collectChildren()
	r.node.Phase, r.node.JobIDFinished = api.InstallationPhaseFailed, r.j.ID
	r.node.LastError = snapshot.NewError(snapshot.OperationReconcile, err)
	r.node.MarkInterrupted(r.j.ID, snapshot.OperationReconcile)
	return err
}

type installSteps interface {
	init() error
	objectsCreated() error
	progressing() error
	completing() error
}

func installMachine(s installSteps, b phase.Backoff, on func(from, to api.InstallationPhase)) *phase.Machine[api.InstallationPhase] {
	return phase.Sequence([]phase.Step[api.InstallationPhase]{
		{Phase: api.InstallationPhaseInit, Run: s.init},
		{Phase: api.InstallationPhaseObjectsCreated, Run: s.objectsCreated},
		{Phase: api.InstallationPhaseProgressing, Run: s.progressing},
		{Phase: api.InstallationPhaseCompleting, Run: s.completing},
	}, api.InstallationPhaseSucceeded, api.InstallationPhaseFailed, b, on)
}

// logTransition logs the phase changes of the installation at path, in
// both flows.
func logTransition(j *job.Job, path string) func(from, to api.InstallationPhase) {
	return func(from, to api.InstallationPhase) {
		j.Log.Info("installation phase", "installation", path, "from", string(from), "to", string(to), "jobID", j.ID)
	}
}
