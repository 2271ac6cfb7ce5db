package execution

import (
	"errors"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase/phasetest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

type (
	script = phasetest.Script[api.ExecutionPhase]
	phases = []api.ExecutionPhase
)

// scripted steps return the error scripted for their phase.
type scripted struct{ script }

func (s scripted) init() error       { return s.Step(api.ExecutionPhaseInit) }
func (s scripted) progress() error   { return s.Step(api.ExecutionPhaseProgressing) }
func (s scripted) complete() error   { return s.Step(api.ExecutionPhaseCompleting) }
func (s scripted) initDelete() error { return s.Step(api.ExecutionPhaseInitDelete) }
func (s scripted) deleting() error   { return s.Step(api.ExecutionPhaseDeleting) }

var (
	errTransient = errors.New("conflict")
	errTerminal  = failure.Terminalf("Invalid", "bad config")
)

func TestInstallMachine_Transitions(t *testing.T) {
	phasetest.Run(t, api.ExecutionPhaseInit, func(s script, on func(from, to api.ExecutionPhase)) *phase.Machine[api.ExecutionPhase] {
		return installMachine(scripted{s}, fastBackoff, on)
	}, []phasetest.Case[api.ExecutionPhase]{
		{Name: "HappyPath", Rule: "Init → Progressing → Completing → Succeeded",
			Script: script{}, Want: phases{"Progressing", "Completing", "Succeeded"}},
		{Name: "InitTerminal", Rule: "a fatal error in Init ends the flow as Failed at once",
			Script: script{"Init": errTerminal}, Want: phases{"Failed"}},
		{Name: "InitTransient", Rule: "a normal error repeats Init; earlier phases are not repeated",
			Script: script{"Init": errTransient}, Want: phases{"Progressing", "Completing", "Succeeded"}},
		{Name: "ProgressingFailed", Rule: "a failed deploy item makes Progressing end as Failed",
			Script: script{"Progressing": errTerminal}, Want: phases{"Progressing", "Failed"}},
		{Name: "CompletingTransient", Rule: "a normal error in Completing repeats Completing",
			Script: script{"Completing": errTransient}, Want: phases{"Progressing", "Completing", "Succeeded"}},
		{Name: "CompletingTerminal", Rule: "a fatal error in Completing ends as Failed",
			Script: script{"Completing": errTerminal}, Want: phases{"Progressing", "Completing", "Failed"}},
	})
}

func TestDeleteMachine_Transitions(t *testing.T) {
	phasetest.Run(t, api.ExecutionPhaseInitDelete, func(s script, on func(from, to api.ExecutionPhase)) *phase.Machine[api.ExecutionPhase] {
		return deleteMachine(scripted{s}, fastBackoff, on)
	}, []phasetest.Case[api.ExecutionPhase]{
		{Name: "HappyPath", Rule: "InitDelete → Deleting → gone",
			Script: script{}, Want: phases{"Deleting", deleted}},
		{Name: "DeletingFailed", Rule: "a DeleteFailed item makes the execution DeleteFailed",
			Script: script{"Deleting": errTerminal}, Want: phases{"Deleting", "DeleteFailed"}},
		{Name: "InitDeleteTransient", Rule: "a normal error repeats InitDelete",
			Script: script{"InitDelete": errTransient}, Want: phases{"Deleting", deleted}},
		{Name: "InitDeleteTerminal", Rule: "a fatal error in InitDelete ends as DeleteFailed",
			Script: script{"InitDelete": errTerminal}, Want: phases{"DeleteFailed"}},
	})
}
