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
	m := Sequence([]Step[p]{{Phase: "A", Run: steps["A"]}, {Phase: "B", Run: steps["B"]}}, "Done", "Failed",
		Backoff{Base: time.Millisecond, Cap: 2 * time.Millisecond, MaxRetries: 3}, nil)
	m.Name = "thing x"
	return m
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

// TestBackoffRetry: the one retry loop repeats a transient error until it
// heals, MaxRetries is reached (0: no limit) or ctx ends, and a terminal
// error at once; it says how many retries it made.
func TestBackoffRetry(t *testing.T) {
	fast := Backoff{Base: time.Millisecond, Cap: time.Millisecond, MaxRetries: 3}
	unlimited := Backoff{Base: time.Millisecond, Cap: time.Millisecond}
	conflict, bad := errors.New("conflict"), failure.Terminalf("Bad", "bad")
	tests := []struct {
		name        string
		rule        string
		b           Backoff
		failures    int   // tries that fail before one succeeds
		err         error // what a failed try returns
		cancelAfter int   // ctx ends after this many tries (0: never)
		wantTries   int
		wantErr     error
	}{
		{"Success", "a try that succeeds is not repeated", fast, 0, conflict, 0, 1, nil},
		{"Heals", "a transient error is retried until the try succeeds", fast, 2, conflict, 0, 3, nil},
		{"Capped", "after MaxRetries retries the last error ends it", fast, 100, conflict, 0, 4, conflict},
		{"Terminal", "a terminal error is never retried", fast, 100, bad, 0, 1, bad},
		{"Unlimited", "MaxRetries 0 retries until the error heals", unlimited, 20, conflict, 0, 21, nil},
		{"ContextEnded", "once ctx ended nothing is retried", unlimited, 100, conflict, 5, 5, conflict},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			tries := 0
			retries, err := tt.b.Retry(ctx, func() error {
				tries++
				if tries == tt.cancelAfter {
					cancel()
				}
				if tries <= tt.failures {
					return tt.err
				}
				return nil
			})
			if tries != tt.wantTries || retries != tries-1 || !errors.Is(err, tt.wantErr) || (err == nil) != (tt.wantErr == nil) {
				t.Fatalf("%s: %d tries, %d retries, error %v; want %d tries, error %v", tt.rule, tries, retries, err, tt.wantTries, tt.wantErr)
			}
		})
	}
}

// TestDefaultBackoff_MaxRetries: the default caps retries at the named
// setting.
func TestDefaultBackoff_MaxRetries(t *testing.T) {
	if DefaultBackoff.MaxRetries != DefaultMaxRetries || DefaultMaxRetries != 10 {
		t.Fatalf("DefaultBackoff retries %d times, DefaultMaxRetries is %d; want both 10", DefaultBackoff.MaxRetries, DefaultMaxRetries)
	}
}
