package execution

import (
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/dag"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/job"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// deleted is the pseudo-phase of an execution that is gone.
const deleted api.ExecutionPhase = "Deleted"

// Delete runs the delete flow of an execution for job j. It returns nil
// when every deploy item is gone, else the execution in DeleteFailed with
// the items that remain. spec needs only Path, Targets and Files.
func Delete(j *job.Job, spec Spec, prev *snapshot.Execution, opts deployer.DeleteOptions) (*snapshot.Execution, error) {
	if prev == nil {
		return nil, nil
	}
	r := &run{j: j, spec: spec, exec: prev.Clone()}
	r.exec.JobID, r.exec.Phase, r.exec.LastError = j.ID, api.ExecutionPhaseInitDelete, nil
	m := deleteMachine(&deleteRun{run: r, opts: opts}, j.Backoff, r.logTransition)
	m.Name = "execution " + spec.Path
	final, err := m.Run(j.Context(), api.ExecutionPhaseInitDelete)
	if final == deleted {
		return nil, nil
	}
	r.finish(final, err, snapshot.OperationDelete)
	return r.exec, err
}

type deleteSteps interface {
	initDelete() error
	deleting() error
}

func deleteMachine(s deleteSteps, b phase.Backoff, on func(from, to api.ExecutionPhase)) *phase.Machine[api.ExecutionPhase] {
	return phase.Sequence([]phase.Step[api.ExecutionPhase]{
		{Phase: api.ExecutionPhaseInitDelete, Run: s.initDelete},
		{Phase: api.ExecutionPhaseDeleting, Run: s.deleting},
	}, deleted, api.ExecutionPhaseDeleteFailed, b, on)
}

type deleteRun struct {
	*run
	opts deployer.DeleteOptions
}

// initDelete marks every item for deletion; with delete-without-uninstall
// the option travels with each item to its deployer.
func (d *deleteRun) initDelete() error {
	if d.j.Interrupted() {
		return d.j.InterruptError()
	}
	return nil
}

// deleting deletes every item in reverse DAG order.
func (d *deleteRun) deleting() error {
	names := make([]string, len(d.exec.DeployItems))
	for i, it := range d.exec.DeployItems {
		names[i] = it.Name
	}
	return d.deleteItems(names, d.opts)
}

// deleteItems deletes the named items, each only when no existing item
// depends on it. Its errors are terminal: the items' own retries are done.
func (r *run) deleteItems(names []string, opts deployer.DeleteOptions) error {
	dec, interrupted := r.drive(names, (*dag.Graph).ClassifyDelete, r.deleteItem(opts))
	return r.driveError(dec, interrupted, func() error {
		return failure.Terminalf("Stuck", "deploy items %v wait for successors that are never deleted", names)
	}, "DeleteFailed", "was not deleted")
}
