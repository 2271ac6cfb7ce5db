package engine

import (
	"context"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

func TestSummarize(t *testing.T) {
	tests := []struct {
		name            string
		rule            string
		baseConfig      string
		wantPhase       api.InstallationPhase
		wantProgressing bool
	}{
		{"Succeeded", "a succeeded job expects no further change: Progressing false", "", api.InstallationPhaseSucceeded, false},
		{"Terminal", "a terminal failure needs a configuration change: Progressing false", "phase: Failed", api.InstallationPhaseFailed, false},
		{"TransientExhausted", "a job that gave up on transient errors may heal by itself: Progressing true", "transientFailures: 100", api.InstallationPhaseFailed, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, _, _ := newEngine()
			snap, _ := e.Apply(context.Background(), rootSpec(t, treeBlueprint(tt.baseConfig)), nil)
			sum := Summarize(snap)
			if sum.Phase != tt.wantPhase || sum.Progressing != tt.wantProgressing {
				t.Errorf("%s: %+v", tt.rule, sum)
			}
			if (sum.Message == "") != (tt.wantPhase == api.InstallationPhaseSucceeded) {
				t.Errorf("%s: message %q", tt.rule, sum.Message)
			}
		})
	}
	if sum := Summarize(nil); sum.Progressing || sum.Phase != "" {
		t.Errorf("an empty snapshot summarises as nothing: %+v", sum)
	}
}
