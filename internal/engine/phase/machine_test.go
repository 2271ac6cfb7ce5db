package phase

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

type p string

func machine(steps map[p]func() error) *Machine[p] {
	return &Machine[p]{
		Name: "thing x",
		Table: map[p]Transition[p]{
			"A": {Step: steps["A"], Next: "B"},
			"B": {Step: steps["B"], Next: "Done"},
		},
		Final:     map[p]bool{"Done": true, "Failed": true},
		FailPhase: "Failed",
		Backoff:   Backoff{Base: time.Millisecond, Cap: 2 * time.Millisecond, MaxRetries: 3},
	}
}

func TestMachineRun(t *testing.T) {
	ok := func() error { return nil }
	tests := []struct {
		name      string
		rule      string
		b         func(calls *int) error
		wantFinal p
		wantCalls int
		wantErr   string
	}{
		{"Success", "a step without error moves to the table's next phase", func(*int) error { return nil }, "Done", 1, ""},
		{"Terminal", "a fatal error ends the flow in the failure phase at once, naming object and phase",
			func(*int) error { return failure.Terminalf("Bad", "bad") }, "Failed", 1, "thing x: phase B: bad"},
		{"TransientHeals", "a normal error repeats the phase until it succeeds",
			func(c *int) error {
				if *c < 3 {
					return errors.New("conflict")
				}
				return nil
			}, "Done", 3, ""},
		{"TransientExhausted", "retries are capped; then the flow fails with the last error",
			func(*int) error { return errors.New("conflict") }, "Failed", 4, "thing x: phase B: conflict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, aCalls := 0, 0
			var seen []p
			m := machine(map[p]func() error{
				"A": func() error { aCalls++; return ok() },
				"B": func() error { calls++; return tt.b(&calls) },
			})
			m.OnTransition = func(_, to p) { seen = append(seen, to) }
			final, err := m.Run(context.Background(), "A")
			if final != tt.wantFinal || calls != tt.wantCalls || aCalls != 1 {
				t.Fatalf("%s: final %s, calls %d, A calls %d (earlier phases are never repeated)", tt.rule, final, calls, aCalls)
			}
			if tt.wantErr == "" && err != nil || tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)) {
				t.Fatalf("%s: error %v", tt.rule, err)
			}
			if seen[len(seen)-1] != final {
				t.Errorf("%s: transitions %v", tt.rule, seen)
			}
		})
	}
}

// TestMachineRun_CancelledDuringBackoff proves a cancelled context ends the retries with the pending error.
func TestMachineRun_CancelledDuringBackoff(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	m := machine(map[p]func() error{"A": func() error { cancel(); return errors.New("conflict") }})
	m.Backoff = Backoff{Base: time.Hour, Cap: time.Hour}
	final, err := m.Run(ctx, "A")
	if final != "Failed" || err == nil {
		t.Fatalf("%s %v", final, err)
	}
}

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Base: 100 * time.Millisecond, Cap: time.Second}
	tests := []struct {
		name     string
		rule     string
		attempt  int
		min, max time.Duration
	}{
		{"First", "the first pause is about Base (jittered down to half)", 0, 50 * time.Millisecond, 100 * time.Millisecond},
		{"Grows", "pauses double with every attempt", 2, 200 * time.Millisecond, 400 * time.Millisecond},
		{"Capped", "pauses never exceed Cap", 20, 500 * time.Millisecond, time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for i := 0; i < 50; i++ {
				if d := b.Delay(tt.attempt); d < tt.min || d > tt.max {
					t.Fatalf("%s: delay %s not in [%s, %s]", tt.rule, d, tt.min, tt.max)
				}
			}
		})
	}
}
