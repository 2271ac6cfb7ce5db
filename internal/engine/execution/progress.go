package execution

import (
	"fmt"
	"sort"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/dag"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// outcome is what a worker reports for one item: its updated copy, or nil
// when the item is gone.
type outcome struct {
	name   string
	item   *snapshot.DeployItem
	status dag.Status
}

// drive triggers the named items along the DAG, as classify decides,
// running work for each in its own goroutine, and returns the final
// decision (Done, Fail or Stuck). After an interrupt it triggers nothing
// more, waits for the running workers and reports interrupted.
func (r *run) drive(names []string, classify func(*dag.Graph, []dag.Status) []dag.Class, work func(*snapshot.DeployItem) outcome) (dec dag.Decision, interrupted bool) {
	byName := r.itemsByName()
	defer r.collect(byName, names)
	nodes := make([]dag.Node, len(names))
	index := make(map[string]int, len(names))
	for i, n := range names {
		nodes[i] = dag.Node{Name: n, DependsOn: byName[n].DependsOn}
		index[n] = i
	}
	graph := dag.Compile(nodes)
	status := make([]dag.Status, len(names))
	results := make(chan outcome, len(names))
	running := 0
	record := func(o outcome) {
		running--
		status[index[o.name]] = o.status
		byName[o.name] = o.item
	}
	for {
		if r.j.Interrupted() {
			if running == 0 {
				return dag.Decision{Action: dag.Fail}, true
			}
			record(<-results)
			continue
		}
		dec = dag.Next(classify(graph, status))
		switch dec.Action {
		case dag.Trigger:
			for _, i := range dec.Trigger {
				status[i] = dag.Running
				running++
				it := byName[names[i]].Clone()
				go func() {
					defer func() {
						if p := recover(); p != nil {
							results <- r.panicked(it, p)
						}
					}()
					results <- work(it)
				}()
			}
		case dag.Wait:
			// Take every result that is already there before classifying
			// again: one classification per batch, not per item.
			record(<-results)
			for drained := false; !drained; {
				select {
				case o := <-results:
					record(o)
				default:
					drained = true
				}
			}
		default:
			return dec, false
		}
	}
}

// panicked is the outcome of a worker that panicked: the item keeps what
// it recorded and fails with the job.
func (r *run) panicked(it *snapshot.DeployItem, p any) outcome {
	err := failure.FromPanic("deploy item "+it.ID, p)
	it.JobIDFinished = r.j.ID
	if it.Phase == api.DeployItemPhaseDeleting {
		it.Phase, it.LastError = api.DeployItemPhaseDeleteFailed, snapshot.NewError(snapshot.OperationDelete, err)
	} else {
		it.Phase, it.LastError = api.DeployItemPhaseFailed, snapshot.NewError(snapshot.OperationReconcile, err)
	}
	return outcome{name: it.Name, item: it, status: dag.Failed}
}

// collect writes the workers' results back into the execution, dropping
// the items that are gone, in their original order.
func (r *run) collect(byName map[string]*snapshot.DeployItem, driven []string) {
	touched := make(map[string]bool, len(driven))
	for _, n := range driven {
		touched[n] = true
	}
	items := r.exec.DeployItems[:0]
	for _, it := range r.exec.DeployItems {
		if !touched[it.Name] {
			items = append(items, it)
		} else if cur := byName[it.Name]; cur != nil {
			items = append(items, cur)
		}
	}
	r.exec.DeployItems = items
}

// progress is the Progressing phase: every item of the spec is triggered
// once its predecessors finished. Its errors are terminal: repeating it
// would trigger finished items again.
func (r *run) progress() error {
	names := make([]string, len(r.spec.Items))
	for i, t := range r.spec.Items {
		names[i] = t.Name
	}
	dec, interrupted := r.drive(names, (*dag.Graph).ClassifyInstall, r.applyItem)
	return r.driveError(dec, interrupted, func() error {
		return failure.Terminalf("Stuck", "deploy items %s wait for predecessors that never finish", strings.Join(r.pending(), ", "))
	}, "DeployItemFailed", "failed")
}

// driveError is the error of a phase whose drive ended with dec: nil when
// every item finished, the interrupt's, stuck's when items wait for
// others that never finish, else a terminal error with reason failed
// that names every item that failed in this job, why, and what happened
// to it (verb).
func (r *run) driveError(dec dag.Decision, interrupted bool, stuck func() error, failed, verb string) error {
	switch {
	case interrupted:
		return r.j.InterruptError()
	case dec.Action == dag.Done:
		return nil
	case dec.Action == dag.Stuck:
		return stuck()
	}
	var msgs []string
	for _, it := range r.exec.DeployItems {
		if it.JobIDFinished == r.j.ID && it.LastError != nil {
			msgs = append(msgs, fmt.Sprintf("deploy item %s %s: %s", it.ID, verb, it.LastError.Message))
		}
	}
	sort.Strings(msgs)
	return failure.NewTerminal(failed, fmt.Errorf("%s", strings.Join(msgs, "; ")))
}

func (r *run) pending() []string {
	var names []string
	for _, it := range r.exec.DeployItems {
		if it.JobID != r.j.ID {
			names = append(names, it.Name)
		}
	}
	sort.Strings(names)
	return names
}
