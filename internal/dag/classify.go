package dag

// Status is where an item stands in the current job, as the classification
// needs it.
type Status int

const (
	// NotTriggered items have not received the current job ID yet.
	NotTriggered Status = iota
	// Running items were triggered and are not finished.
	Running
	// Succeeded items finished the job successfully.
	Succeeded
	// Failed items finished the job unsuccessfully (Failed, resp. DeleteFailed).
	Failed
	// Gone items were deleted; only the delete flow uses it.
	Gone
)

// Class is one of the classes A–E (ARCHITECTURE.md, "Execution flow and
// the classes A–E"); 0 means not classified
// (gone items in the delete flow).
type Class byte

// The classes A–E. The delete flow has no class A: succeeded
// deletions are gone.
const (
	ClassA Class = 'A' // triggered, finished, succeeded
	ClassB Class = 'B' // triggered, finished, failed
	ClassC Class = 'C' // triggered, not finished
	ClassD Class = 'D' // not triggered, may be triggered now
	ClassE Class = 'E' // not triggered, must wait
)

// Action is what the execution does after a classification.
type Action int

const (
	// Wait until a running item finishes.
	Wait Action = iota
	// Trigger the items in Decision.Trigger.
	Trigger
	// Done: every item succeeded (install) or is gone (delete).
	Done
	// Fail: an item failed and nothing runs any more.
	Fail
	// Stuck: items wait for predecessors that will never finish (a cycle).
	Stuck
)

// Decision is the outcome of one classification.
type Decision struct {
	Action Action
	// Trigger holds node indices in ascending order; only for Trigger.
	Trigger []int
}

// Graph is a compiled dependency graph: nodes by index with the indices of
// their predecessors and successors. Dependencies on unknown names are
// dropped (Validate reports them). Compile once, classify often: a
// classification allocates nothing but its result.
type Graph struct {
	Names        []string
	preds, succs [][]int
}

// Compile indexes nodes.
func Compile(nodes []Node) *Graph {
	g := &Graph{Names: make([]string, len(nodes)), preds: make([][]int, len(nodes)), succs: make([][]int, len(nodes))}
	index := make(map[string]int, len(nodes))
	for i, n := range nodes {
		g.Names[i] = n.Name
		index[n.Name] = i
	}
	for i, n := range nodes {
		for _, d := range n.DependsOn {
			if p, ok := index[d]; ok {
				g.preds[i] = append(g.preds[i], p)
				g.succs[p] = append(g.succs[p], i)
			}
		}
	}
	return g
}

// ClassifyInstall classifies for the Progressing phase: an untriggered item
// is in D when all its predecessors (dependsOn) are finished.
func (g *Graph) ClassifyInstall(status []Status) []Class {
	classes := make([]Class, len(status))
	for i, s := range status {
		switch s {
		case Succeeded, Gone:
			classes[i] = ClassA
		case Failed:
			classes[i] = ClassB
		case Running:
			classes[i] = ClassC
		default:
			classes[i] = ClassD
			for _, p := range g.preds[i] {
				if status[p] != Succeeded && status[p] != Failed {
					classes[i] = ClassE
					break
				}
			}
		}
	}
	return classes
}

// ClassifyDelete classifies for the Deleting phase: gone items are left
// out (class 0), and an untriggered item is in D when no existing item
// depends on it (its successors are all gone).
func (g *Graph) ClassifyDelete(status []Status) []Class {
	classes := make([]Class, len(status))
	for i, s := range status {
		switch s {
		case Gone:
		case Failed, Succeeded:
			// A finished deletion that left the item behind is no success.
			classes[i] = ClassB
		case Running:
			classes[i] = ClassC
		default:
			classes[i] = ClassD
			for _, succ := range g.succs[i] {
				if status[succ] != Gone {
					classes[i] = ClassE
					break
				}
			}
		}
	}
	return classes
}

// Next applies the rules of the classes A–E to a classification: all finished and
// succeeded ⇒ Done; any failed ⇒ trigger nothing, Wait while items run, then
// Fail; otherwise trigger class D; with nothing running and nothing
// triggerable but items waiting ⇒ Stuck.
func Next(classes []Class) Decision {
	var count [256]int
	var ready []int
	for i, c := range classes {
		count[c]++
		if c == ClassD {
			ready = append(ready, i)
		}
	}
	switch {
	case count[ClassB] > 0 && count[ClassC] > 0:
		return Decision{Action: Wait}
	case count[ClassB] > 0:
		return Decision{Action: Fail}
	case len(ready) > 0:
		return Decision{Action: Trigger, Trigger: ready}
	case count[ClassC] > 0:
		return Decision{Action: Wait}
	case count[ClassE] > 0:
		return Decision{Action: Stuck}
	default:
		return Decision{Action: Done}
	}
}
