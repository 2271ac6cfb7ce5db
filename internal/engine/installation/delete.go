package installation

import (
	"errors"
	"fmt"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/job"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// deleted is the pseudo-phase of an installation that is gone.
const deleted api.InstallationPhase = "Deleted"

// deleteRun is one installation's delete flow. It needs only the
// snapshot: no blueprint, no configuration.
type deleteRun struct {
	j              *job.Job
	node           *snapshot.Installation
	opts           deployer.DeleteOptions
	waitSuccessors func() error

	subsDone chan struct{}
	subsLeft []*snapshot.Installation
	subsErr  error
}

// Delete runs the delete flow of node and its subtree for job j. It
// returns nil when everything is gone, else the node in DeleteFailed with
// what remains. waitSuccessors blocks until the siblings that import this
// installation's exports finished their deletion and fails if one
// remains; nil for the root.
func Delete(j *job.Job, node *snapshot.Installation, opts deployer.DeleteOptions, waitSuccessors func() error) (*snapshot.Installation, error) {
	if node == nil {
		return nil, nil
	}
	d := &deleteRun{j: j, node: node.Clone(), opts: opts, waitSuccessors: waitSuccessors, subsDone: make(chan struct{})}
	d.node.JobID, d.node.LastError = j.ID, nil
	m := deleteMachine(d, j.Backoff, logTransition(j, d.node.Path))
	m.Name = "installation " + d.node.Path
	final, err := m.Run(j.Context(), api.InstallationPhaseInitDelete)
	if final == deleted {
		return nil, nil
	}
	d.node.Phase, d.node.JobIDFinished = final, j.ID
	if err != nil {
		d.node.LastError = snapshot.NewError(snapshot.OperationDelete, err)
		if j.Interrupted() {
			d.node.MarkInterrupted(j.ID, snapshot.OperationDelete)
		}
	}
	return d.node, err
}

type deleteSteps interface {
	initDelete() error
	triggerDelete() error
	deleting() error
}

func deleteMachine(s deleteSteps, b phase.Backoff, on func(from, to api.InstallationPhase)) *phase.Machine[api.InstallationPhase] {
	return phase.Sequence([]phase.Step[api.InstallationPhase]{
		{Phase: api.InstallationPhaseInitDelete, Run: s.initDelete},
		{Phase: api.InstallationPhaseTriggerDelete, Run: s.triggerDelete},
		{Phase: api.InstallationPhaseDeleting, Run: s.deleting},
	}, deleted, api.InstallationPhaseDeleteFailed, b, on)
}

// initDelete waits while successors exist: they must be deleted first.
func (d *deleteRun) initDelete() error {
	if d.waitSuccessors != nil {
		if err := d.waitSuccessors(); err != nil {
			return err
		}
	}
	if d.j.Interrupted() {
		return d.j.InterruptError()
	}
	return nil
}

// triggerDelete starts the deletion of the subinstallations; delete-
// without-uninstall travels down with opts.
func (d *deleteRun) triggerDelete() error {
	subs := d.node.Subinstallations
	go func() {
		defer close(d.subsDone)
		d.subsLeft, d.subsErr = deleteSiblings(d.j, subs, d.opts)
	}()
	return nil
}

// deleting deletes the execution and waits for the subinstallations. It
// fails only after every subobject finished (ARCHITECTURE.md, "Deletion").
func (d *deleteRun) deleting() error {
	exec, execErr := execution.Delete(d.j, execution.Spec{Path: d.node.Path, Targets: d.node.Targets}, d.node.Execution, d.opts)
	<-d.subsDone
	d.node.Execution, d.node.Subinstallations = exec, d.subsLeft
	if err := errors.Join(execErr, d.subsErr); err != nil {
		return failure.NewTerminal("DeleteFailed", fmt.Errorf("subobjects remain: %w", err))
	}
	return nil
}

// deleteSiblings deletes sibling installations concurrently, each only
// after the siblings importing its exports are gone. It returns the ones
// that remain.
func deleteSiblings(j *job.Job, subs []*snapshot.Installation, opts deployer.DeleteOptions) ([]*snapshot.Installation, error) {
	type state struct {
		done   chan struct{}
		result *snapshot.Installation
		err    error
	}
	states := map[string]*state{}
	imports, exports := map[string][]string{}, map[string][]string{}
	names := make([]string, len(subs))
	for i, s := range subs {
		states[s.Name] = &state{done: make(chan struct{})}
		imports[s.Name], exports[s.Name], names[i] = s.ImportRefs, s.ExportRefs, s.Name
	}
	successors := map[string][]string{}
	if nodes, err := siblingGraph(imports, exports, names); err == nil {
		for _, n := range nodes {
			for _, p := range n.DependsOn {
				successors[p] = append(successors[p], n.Name)
			}
		}
	}
	for _, s := range subs {
		st := states[s.Name]
		wait := func() error {
			for _, succ := range successors[s.Name] {
				<-states[succ].done
				if states[succ].result != nil {
					return failure.Terminalf("SuccessorExists", "successor subinstallation %q still exists", succ)
				}
			}
			return nil
		}
		go func() {
			defer close(st.done)
			st.result, st.err = Delete(j, s, opts, wait)
		}()
	}
	var left []*snapshot.Installation
	var errs []error
	for _, s := range subs {
		st := states[s.Name]
		<-st.done
		if st.result != nil {
			left = append(left, st.result)
		}
		errs = append(errs, st.err)
	}
	sort.Slice(left, func(a, b int) bool { return left[a].Name < left[b].Name })
	return left, errors.Join(errs...)
}
