// Package phase drives a phase machine: one transition table per object
// kind, and the one place where the outcome of a phase is triaged
// (ARCHITECTURE.md, "Errors"): success moves to the table's next phase, a transient error repeats
// the phase after a growing pause, a terminal error ends the flow in the
// failure phase at once. Interrupts are not decided here: steps see the
// job's interrupt and return a terminal error for it.
package phase

import (
	"context"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Transition is one row of a transition table: the work of a phase and the
// phase that follows when it succeeds.
type Transition[P comparable] struct {
	Step func() error
	Next P
}

// Machine is a flow: a table, its final phases and its failure phase.
type Machine[P comparable] struct {
	// Name names the object in errors ("installation root/db").
	Name  string
	Table map[P]Transition[P]
	// Final phases end the flow; the machine never runs a step for them.
	Final map[P]bool
	// FailPhase is entered on a terminal error (Failed, DeleteFailed).
	FailPhase P
	Backoff   Backoff
	// OnTransition observes every phase change (logging, status updates).
	OnTransition func(from, to P)
}

// Run steps from start until a final phase and returns it. The error is the
// one that moved the flow to FailPhase (wrapped with the object and phase),
// or the last transient error when retries ran out; nil on success. ctx
// only bounds the pauses between retries: when it ends while a transient
// error is pending, the flow fails with that error.
func (m *Machine[P]) Run(ctx context.Context, start P) (P, error) {
	current := start
	attempt := 0
	for !m.Final[current] {
		tr, ok := m.Table[current]
		if !ok {
			return m.fail(current, failure.Terminalf("NoTransition", "no transition from phase %v", current))
		}
		err := tr.Step()
		if err == nil {
			m.move(current, tr.Next)
			current, attempt = tr.Next, 0
			continue
		}
		if failure.IsTerminal(err) {
			return m.fail(current, err)
		}
		if !m.Backoff.Retry(ctx, attempt) {
			return m.fail(current, err)
		}
		attempt++
	}
	return current, nil
}

func (m *Machine[P]) fail(in P, err error) (P, error) {
	m.move(in, m.FailPhase)
	return m.FailPhase, &PhaseError{Object: m.Name, Phase: fmt.Sprint(in), Err: err}
}

func (m *Machine[P]) move(from, to P) {
	if m.OnTransition != nil && from != to {
		m.OnTransition(from, to)
	}
}

// PhaseError names the object and the phase an error ended.
type PhaseError struct {
	Object string
	Phase  string
	Err    error
}

func (e *PhaseError) Error() string {
	return fmt.Sprintf("%s: phase %s: %v", e.Object, e.Phase, e.Err)
}

func (e *PhaseError) Unwrap() error { return e.Err }
