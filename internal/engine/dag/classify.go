package dag

import "sort"

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

// Item is a node with its status.
type Item struct {
	Name      string
	DependsOn []string
	Status    Status
}

// Class is one of the classes A–E of seed 002.
type Class byte

// The classes of seed 002. The delete flow has no class A: succeeded
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
	Action  Action
	Trigger []string // sorted; only for Trigger
}

// ClassifyInstall classifies for the Progressing phase: an untriggered item
// is in D when all its predecessors (dependsOn) are finished.
func ClassifyInstall(items []Item) map[string]Class {
	status := statusByName(items)
	classes := make(map[string]Class, len(items))
	for _, it := range items {
		switch it.Status {
		case Succeeded, Gone:
			classes[it.Name] = ClassA
		case Failed:
			classes[it.Name] = ClassB
		case Running:
			classes[it.Name] = ClassC
		default:
			classes[it.Name] = ClassD
			for _, d := range it.DependsOn {
				if s, ok := status[d]; ok && s != Succeeded && s != Failed {
					classes[it.Name] = ClassE
					break
				}
			}
		}
	}
	return classes
}

// ClassifyDelete classifies for the Deleting phase: gone items are left out,
// and an untriggered item is in D when no existing item depends on it (its
// successors are all gone).
func ClassifyDelete(items []Item) map[string]Class {
	hasSuccessor := make(map[string]bool, len(items))
	for _, it := range items {
		if it.Status == Gone {
			continue
		}
		for _, d := range it.DependsOn {
			hasSuccessor[d] = true
		}
	}
	classes := make(map[string]Class, len(items))
	for _, it := range items {
		switch {
		case it.Status == Gone:
		case it.Status == Failed:
			classes[it.Name] = ClassB
		case it.Status == Running:
			classes[it.Name] = ClassC
		case it.Status == Succeeded:
			// A finished deletion that left the item behind is no success.
			classes[it.Name] = ClassB
		case hasSuccessor[it.Name]:
			classes[it.Name] = ClassE
		default:
			classes[it.Name] = ClassD
		}
	}
	return classes
}

// Next applies seed 002's rules to a classification: all finished and
// succeeded ⇒ Done; any failed ⇒ trigger nothing, Wait while items run, then
// Fail; otherwise trigger class D; with nothing running and nothing
// triggerable but items waiting ⇒ Stuck.
func Next(classes map[string]Class) Decision {
	count := map[Class]int{}
	var ready []string
	for name, c := range classes {
		count[c]++
		if c == ClassD {
			ready = append(ready, name)
		}
	}
	switch {
	case count[ClassB] > 0 && count[ClassC] > 0:
		return Decision{Action: Wait}
	case count[ClassB] > 0:
		return Decision{Action: Fail}
	case len(ready) > 0:
		sort.Strings(ready)
		return Decision{Action: Trigger, Trigger: ready}
	case count[ClassC] > 0:
		return Decision{Action: Wait}
	case count[ClassE] > 0:
		return Decision{Action: Stuck}
	default:
		return Decision{Action: Done}
	}
}

func statusByName(items []Item) map[string]Status {
	m := make(map[string]Status, len(items))
	for _, it := range items {
		m[it.Name] = it.Status
	}
	return m
}
