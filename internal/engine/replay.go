package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// Replay runs a new job that applies every deploy item prev records once
// more, with the configuration it recorded, without rendering anything:
// Landscaper's reconcile operation on an installation whose
// configuration did not change ("redeploy now"). What a deployer finds
// changed or missing in the cluster is put back. Installations run one
// after another, parents first; the items of one execution run as their
// recorded dependencies allow (where none were recorded, at once: an item
// whose prerequisite is not there yet fails transiently and is retried).
// Deployers that read blueprint files get none. An item whose
// configuration held write-only values was recorded with them masked and
// fails (execution.Spec.Recorded): only an apply has them. The returned snapshot is
// prev as the job leaves it; the error names the failed executions.
func (e *Engine) Replay(ctx context.Context, prev *Snapshot) (*Snapshot, error) {
	if prev.Empty() {
		return prev, errors.New("nothing recorded to reconcile")
	}
	snap := prev.Clone()
	j := e.newJob(ctx, snapshot.RootProviderRefs(snap.Root.Targets))
	j.Log.Info("reconcile job started", "installation", snap.Root.Path, "jobID", j.ID)
	installations := snap.Installations()
	sort.SliceStable(installations, func(a, b int) bool { return installations[a].Path < installations[b].Path })
	var errs []error
	for _, in := range installations {
		in.JobID, in.LastError = j.ID, nil
		if in.Execution != nil && len(in.Execution.DeployItems) > 0 {
			exec, err := execution.Run(j, replaySpec(in), in.Execution)
			in.Execution = exec
			if err != nil {
				errs = append(errs, err)
			}
		}
	}
	// An installation succeeded when its execution and every installation
	// below it did.
	for i := len(installations) - 1; i >= 0; i-- {
		in := installations[i]
		in.Phase, in.JobIDFinished = api.InstallationPhaseSucceeded, j.ID
		failed := in.Execution != nil && in.Execution.Phase != api.ExecutionPhaseSucceeded
		for _, sub := range in.Subinstallations {
			failed = failed || sub.Phase != api.InstallationPhaseSucceeded
		}
		if failed {
			in.Phase = api.InstallationPhaseFailed
			in.LastError = &snapshot.Error{Operation: snapshot.OperationReconcile, Reason: "ReconcileFailed",
				Message: fmt.Sprintf("reconcile job %s failed", j.ID)}
		}
	}
	err := errors.Join(errs...)
	j.Log.Info("reconcile job finished", "installation", snap.Root.Path, "jobID", j.ID, "phase", string(snap.Root.Phase))
	return snap, err
}

// replaySpec is the execution of in as its recorded deploy items.
func replaySpec(in *snapshot.Installation) execution.Spec {
	items := make([]api.DeployItemTemplate, 0, len(in.Execution.DeployItems))
	for _, it := range in.Execution.DeployItems {
		items = append(items, api.DeployItemTemplate{Name: it.Name, Type: it.Type, Target: it.Target,
			Config: it.Config, DependsOn: it.DependsOn, Timeout: it.Timeout})
	}
	return execution.Spec{Path: in.Path, Items: items, Targets: in.Targets, OrphanTargets: in.Targets, Recorded: true}
}
