package installation

import (
	"errors"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase/phasetest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

type (
	script = phasetest.Script[api.InstallationPhase]
	phases = []api.InstallationPhase
)

// scripted steps return the error scripted for their phase; a transient
// error heals on the retry.
type scripted struct{ script }

func (s scripted) init() error           { return s.Step(api.InstallationPhaseInit) }
func (s scripted) objectsCreated() error { return s.Step(api.InstallationPhaseObjectsCreated) }
func (s scripted) progressing() error    { return s.Step(api.InstallationPhaseProgressing) }
func (s scripted) completing() error     { return s.Step(api.InstallationPhaseCompleting) }
func (s scripted) initDelete() error     { return s.Step(api.InstallationPhaseInitDelete) }
func (s scripted) triggerDelete() error  { return s.Step(api.InstallationPhaseTriggerDelete) }
func (s scripted) deleting() error       { return s.Step(api.InstallationPhaseDeleting) }

var (
	fast         = phase.Backoff{Base: time.Millisecond, Cap: time.Millisecond, MaxRetries: 3}
	errTransient = errors.New("conflict")
	errTerminal  = failure.Terminalf("Invalid", "bad")
)

func TestInstallMachine_Transitions(t *testing.T) {
	phasetest.Run(t, api.InstallationPhaseInit, func(s script, on func(from, to api.InstallationPhase)) *phase.Machine[api.InstallationPhase] {
		return installMachine(scripted{s}, fast, on)
	}, []phasetest.Case[api.InstallationPhase]{
		{Name: "HappyPath", Rule: "Init → ObjectsCreated → Progressing → Completing → Succeeded",
			Script: script{}, Want: phases{"ObjectsCreated", "Progressing", "Completing", "Succeeded"}},
		{Name: "InitFatal", Rule: "a fatal error in Init (e.g. a predecessor failed, an import is missing) ends as Failed",
			Script: script{"Init": errTerminal}, Want: phases{"Failed"}},
		{Name: "InitNormal", Rule: "a normal error repeats Init only",
			Script: script{"Init": errTransient}, Want: phases{"ObjectsCreated", "Progressing", "Completing", "Succeeded"}},
		{Name: "ObjectsCreatedNormal", Rule: "a normal error in ObjectsCreated repeats it",
			Script: script{"ObjectsCreated": errTransient}, Want: phases{"ObjectsCreated", "Progressing", "Completing", "Succeeded"}},
		{Name: "ChildFailed", Rule: "when all children finished and one failed, Progressing ends as Failed",
			Script: script{"Progressing": errTerminal}, Want: phases{"ObjectsCreated", "Progressing", "Failed"}},
		{Name: "ImportsChanged", Rule: "Completing fails if spec or imports changed during the job",
			Script: script{"Completing": errTerminal}, Want: phases{"ObjectsCreated", "Progressing", "Completing", "Failed"}},
		{Name: "CompletingNormal", Rule: "a normal error in Completing repeats Completing",
			Script: script{"Completing": errTransient}, Want: phases{"ObjectsCreated", "Progressing", "Completing", "Succeeded"}},
	})
}

func TestDeleteMachine_Transitions(t *testing.T) {
	phasetest.Run(t, api.InstallationPhaseInitDelete, func(s script, on func(from, to api.InstallationPhase)) *phase.Machine[api.InstallationPhase] {
		return deleteMachine(scripted{s}, fast, on)
	}, []phasetest.Case[api.InstallationPhase]{
		{Name: "HappyPath", Rule: "InitDelete → TriggerDelete → Deleting → gone",
			Script: script{}, Want: phases{"TriggerDelete", "Deleting", deleted}},
		{Name: "SuccessorRemains", Rule: "a successor that still exists after its deletion finished makes InitDelete end as DeleteFailed",
			Script: script{"InitDelete": errTerminal}, Want: phases{"DeleteFailed"}},
		{Name: "InitDeleteNormal", Rule: "a normal error repeats InitDelete",
			Script: script{"InitDelete": errTransient}, Want: phases{"TriggerDelete", "Deleting", deleted}},
		{Name: "ChildDeleteFailed", Rule: "subobjects left in DeleteFailed make Deleting end as DeleteFailed",
			Script: script{"Deleting": errTerminal}, Want: phases{"TriggerDelete", "Deleting", "DeleteFailed"}},
	})
}
