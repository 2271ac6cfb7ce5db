package execution

import (
	"context"
	"errors"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// scripted steps return the error scripted for their phase.
type scripted map[api.ExecutionPhase]error

func (s scripted) init() error       { return s.take(api.ExecutionPhaseInit) }
func (s scripted) progress() error   { return s.take(api.ExecutionPhaseProgressing) }
func (s scripted) complete() error   { return s.take(api.ExecutionPhaseCompleting) }
func (s scripted) initDelete() error { return s.take(api.ExecutionPhaseInitDelete) }
func (s scripted) deleting() error   { return s.take(api.ExecutionPhaseDeleting) }
func (s scripted) take(p api.ExecutionPhase) error {
	err := s[p]
	if failure.KindOf(err) == failure.Transient {
		delete(s, p) // a transient error heals on the retry
	}
	return err
}

var (
	errTransient = errors.New("conflict")
	errTerminal  = failure.Terminalf("Invalid", "bad config")
)

func TestInstallMachine_Transitions(t *testing.T) {
	tests := []struct {
		name   string
		rule   string
		script scripted
		want   []api.ExecutionPhase
	}{
		{"HappyPath", "Init → Progressing → Completing → Succeeded",
			scripted{}, []api.ExecutionPhase{"Progressing", "Completing", "Succeeded"}},
		{"InitTerminal", "a fatal error in Init ends the flow as Failed at once",
			scripted{"Init": errTerminal}, []api.ExecutionPhase{"Failed"}},
		{"InitTransient", "a normal error repeats Init; earlier phases are not repeated",
			scripted{"Init": errTransient}, []api.ExecutionPhase{"Progressing", "Completing", "Succeeded"}},
		{"ProgressingFailed", "a failed deploy item makes Progressing end as Failed",
			scripted{"Progressing": errTerminal}, []api.ExecutionPhase{"Progressing", "Failed"}},
		{"CompletingTransient", "a normal error in Completing repeats Completing",
			scripted{"Completing": errTransient}, []api.ExecutionPhase{"Progressing", "Completing", "Succeeded"}},
		{"CompletingTerminal", "a fatal error in Completing ends as Failed",
			scripted{"Completing": errTerminal}, []api.ExecutionPhase{"Progressing", "Completing", "Failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []api.ExecutionPhase
			m := installMachine(tt.script, fastBackoff, func(_, to api.ExecutionPhase) { got = append(got, to) })
			// The flow's error is the step's own; the rule is about phases.
			final, _ := m.Run(context.Background(), api.ExecutionPhaseInit)
			if len(tt.want) > 0 && final != tt.want[len(tt.want)-1] {
				t.Fatalf("%s: ended in %s, want %s", tt.rule, final, tt.want[len(tt.want)-1])
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%s: transitions %v, want %v", tt.rule, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("%s: transitions %v, want %v", tt.rule, got, tt.want)
				}
			}
		})
	}
}

func TestDeleteMachine_Transitions(t *testing.T) {
	tests := []struct {
		name   string
		rule   string
		script scripted
		want   []api.ExecutionPhase
	}{
		{"HappyPath", "InitDelete → Deleting → gone",
			scripted{}, []api.ExecutionPhase{"Deleting", deleted}},
		{"DeletingFailed", "a DeleteFailed item makes the execution DeleteFailed",
			scripted{"Deleting": errTerminal}, []api.ExecutionPhase{"Deleting", "DeleteFailed"}},
		{"InitDeleteTransient", "a normal error repeats InitDelete",
			scripted{"InitDelete": errTransient}, []api.ExecutionPhase{"Deleting", deleted}},
		{"InitDeleteTerminal", "a fatal error in InitDelete ends as DeleteFailed",
			scripted{"InitDelete": errTerminal}, []api.ExecutionPhase{"DeleteFailed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []api.ExecutionPhase
			m := deleteMachine(tt.script, fastBackoff, func(_, to api.ExecutionPhase) { got = append(got, to) })
			final, _ := m.Run(context.Background(), api.ExecutionPhaseInitDelete)
			if final != tt.want[len(tt.want)-1] || len(got) != len(tt.want) {
				t.Fatalf("%s: transitions %v, want %v", tt.rule, got, tt.want)
			}
		})
	}
}
