// Package phase drives a phase machine: one transition table per object
// kind (built by Sequence), and the one place where the outcome of a phase
// or of a deployer call is triaged (Backoff.Retry; ARCHITECTURE.md,
// "Errors"): success moves on, a transient error repeats the work after a
// growing pause until DefaultMaxRetries (Backoff.MaxRetries) is reached,
// a terminal error ends the flow in the failure phase at once. Interrupts
// are not decided here: steps see the job's interrupt and return a
// terminal error for it.
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

// Step is one phase of a Sequence and its work.
type Step[P comparable] struct {
	Phase P
	Run   func() error
}

// Sequence is the machine of a flow whose phases follow one another, as
// every flow of the engine does (ARCHITECTURE.md, "Phase machines"): each
// of steps that succeeds moves to the next step's phase, the last one to
// done; a terminal error moves to failed. on observes every phase change
// (nil: none). Name the object in the returned machine's Name.
func Sequence[P comparable](steps []Step[P], done, failed P, b Backoff, on func(from, to P)) *Machine[P] {
	m := &Machine[P]{Table: make(map[P]Transition[P], len(steps)), Final: map[P]bool{done: true, failed: true},
		FailPhase: failed, Backoff: b, OnTransition: on}
	for i, s := range steps {
		next := done
		if i+1 < len(steps) {
			next = steps[i+1].Phase
		}
		m.Table[s.Phase] = Transition[P]{Step: s.Run, Next: next}
	}
	return m
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

// Run steps from start until a final phase and returns it. Each step runs
// through Backoff.Retry: the error is the one that moved the flow to
// FailPhase (wrapped with the object and phase) — a terminal one, or the
// last transient one when retries ran out or ctx ended; nil on success.
// ctx only bounds the pauses between retries.
func (m *Machine[P]) Run(ctx context.Context, start P) (P, error) {
	current := start
	for !m.Final[current] {
		tr, ok := m.Table[current]
		if !ok {
			return m.fail(current, failure.Terminalf("NoTransition", "no transition from phase %v", current))
		}
		if _, err := m.Backoff.Retry(ctx, tr.Step); err != nil {
			return m.fail(current, err)
		}
		m.move(current, tr.Next)
		current = tr.Next
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
