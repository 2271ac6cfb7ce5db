package installation

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// scripted steps return the error scripted for their phase; a transient
// error heals on the retry.
type scripted map[api.InstallationPhase]error

func (s scripted) init() error { return s.take(api.InstallationPhaseInit) }
func (s scripted) objectsCreated() error {
	return s.take(api.InstallationPhaseObjectsCreated)
}
func (s scripted) progressing() error { return s.take(api.InstallationPhaseProgressing) }
func (s scripted) completing() error  { return s.take(api.InstallationPhaseCompleting) }
func (s scripted) initDelete() error  { return s.take(api.InstallationPhaseInitDelete) }
func (s scripted) triggerDelete() error {
	return s.take(api.InstallationPhaseTriggerDelete)
}
func (s scripted) deleting() error { return s.take(api.InstallationPhaseDeleting) }
func (s scripted) take(p api.InstallationPhase) error {
	err := s[p]
	if !failure.IsTerminal(err) {
		delete(s, p)
	}
	return err
}

var (
	fast         = phase.Backoff{Base: time.Millisecond, Cap: time.Millisecond, MaxRetries: 3}
	errTransient = errors.New("conflict")
	errTerminal  = failure.Terminalf("Invalid", "bad")
)

func TestInstallMachine_Transitions(t *testing.T) {
	tests := []struct {
		name   string
		rule   string
		script scripted
		want   []api.InstallationPhase
	}{
		{"HappyPath", "Init → ObjectsCreated → Progressing → Completing → Succeeded",
			scripted{}, []api.InstallationPhase{"ObjectsCreated", "Progressing", "Completing", "Succeeded"}},
		{"InitFatal", "a fatal error in Init (e.g. a predecessor failed, an import is missing) ends as Failed",
			scripted{"Init": errTerminal}, []api.InstallationPhase{"Failed"}},
		{"InitNormal", "a normal error repeats Init only",
			scripted{"Init": errTransient}, []api.InstallationPhase{"ObjectsCreated", "Progressing", "Completing", "Succeeded"}},
		{"ObjectsCreatedNormal", "a normal error in ObjectsCreated repeats it",
			scripted{"ObjectsCreated": errTransient}, []api.InstallationPhase{"ObjectsCreated", "Progressing", "Completing", "Succeeded"}},
		{"ChildFailed", "when all children finished and one failed, Progressing ends as Failed",
			scripted{"Progressing": errTerminal}, []api.InstallationPhase{"ObjectsCreated", "Progressing", "Failed"}},
		{"ImportsChanged", "Completing fails if spec or imports changed during the job",
			scripted{"Completing": errTerminal}, []api.InstallationPhase{"ObjectsCreated", "Progressing", "Completing", "Failed"}},
		{"CompletingNormal", "a normal error in Completing repeats Completing",
			scripted{"Completing": errTransient}, []api.InstallationPhase{"ObjectsCreated", "Progressing", "Completing", "Succeeded"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []api.InstallationPhase
			m := installMachine(tt.script, fast, func(_, to api.InstallationPhase) { got = append(got, to) })
			// The flow's error is the step's own; the rule is about phases.
			final, _ := m.Run(context.Background(), api.InstallationPhaseInit)
			if len(tt.want) > 0 && final != tt.want[len(tt.want)-1] {
				t.Fatalf("%s: ended in %s, want %s", tt.rule, final, tt.want[len(tt.want)-1])
			}
			if len(got) != len(tt.want) {
				t.Fatalf("%s: %v, want %v", tt.rule, got, tt.want)
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Fatalf("%s: %v, want %v", tt.rule, got, tt.want)
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
		want   []api.InstallationPhase
	}{
		{"HappyPath", "InitDelete → TriggerDelete → Deleting → gone",
			scripted{}, []api.InstallationPhase{"TriggerDelete", "Deleting", deleted}},
		{"SuccessorRemains", "a successor that still exists after its deletion finished makes InitDelete end as DeleteFailed",
			scripted{"InitDelete": errTerminal}, []api.InstallationPhase{"DeleteFailed"}},
		{"InitDeleteNormal", "a normal error repeats InitDelete",
			scripted{"InitDelete": errTransient}, []api.InstallationPhase{"TriggerDelete", "Deleting", deleted}},
		{"ChildDeleteFailed", "subobjects left in DeleteFailed make Deleting end as DeleteFailed",
			scripted{"Deleting": errTerminal}, []api.InstallationPhase{"TriggerDelete", "Deleting", "DeleteFailed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []api.InstallationPhase
			m := deleteMachine(tt.script, fast, func(_, to api.InstallationPhase) { got = append(got, to) })
			final, _ := m.Run(context.Background(), api.InstallationPhaseInitDelete)
			if final != tt.want[len(tt.want)-1] || len(got) != len(tt.want) {
				t.Fatalf("%s: %v, want %v", tt.rule, got, tt.want)
			}
		})
	}
}
