package job

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// TestCallContext checks when a deployer call's context ends. It notes the
// moment each context ended (context.AfterFunc) and compares it with the
// earliest moment the rule allows: a loaded machine only makes the end
// later, never earlier, so "ended too early" cannot flake, and the timeout
// is checked exactly through the context's deadline.
func TestCallContext(t *testing.T) {
	const abortTimeout = 300 * time.Millisecond
	tests := []struct {
		name      string
		rule      string
		timeout   time.Duration
		interrupt bool
		endsAfter time.Duration // the context must not end before this, counted from the call (or the interrupt)
	}{
		{"Timeout", "the deploy item timeout bounds the call", 300 * time.Millisecond, false, 300 * time.Millisecond},
		{"Interrupt", "an interrupt cancels a running call at once; it then has the abort timeout to return", 0, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent, cancel := context.WithCancel(context.Background())
			defer cancel()
			j := New(parent, "job", nil, 1, phase.Backoff{}, abortTimeout, nil)
			from := time.Now()
			ctx, stop := j.CallContext(tt.timeout)
			created := time.Now()
			defer stop()
			ended := make(chan time.Time, 1)
			context.AfterFunc(ctx, func() { ended <- time.Now() })
			if tt.interrupt {
				from = time.Now()
				cancel()
			}
			if deadline, ok := ctx.Deadline(); ok != (tt.timeout > 0) {
				t.Fatalf("%s: deadline set = %v", tt.rule, ok)
			} else if ok && (deadline.Before(from.Add(tt.timeout)) || deadline.After(created.Add(tt.timeout))) {
				t.Fatalf("%s: deadline %s is not the timeout %s after the call", tt.rule, deadline.Sub(from), tt.timeout)
			}
			var at time.Time
			select {
			case at = <-ended:
			case <-time.After(tt.endsAfter + neverEnded):
				t.Fatalf("%s: not ended", tt.rule)
			}
			if early := from.Add(tt.endsAfter).Sub(at); early > 0 {
				t.Fatalf("%s: ended %s too early", tt.rule, early)
			}
			if tt.interrupt && !strings.Contains(fmt.Sprint(context.Cause(ctx)), "abort timeout") {
				t.Fatalf("%s: ended by %v", tt.rule, context.Cause(ctx))
			}
			if !tt.interrupt && ctx.Err() != context.DeadlineExceeded {
				t.Fatalf("%s: ended by %v", tt.rule, ctx.Err())
			}
		})
	}
}

// neverEnded is how long after its time a context that has not ended
// counts as never ending: generous, because a loaded machine runs timers
// late; the exact rules are checked by the deadline and the end's moment.
const neverEnded = 30 * time.Second

// TestAcquire_Interrupted proves a call waiting for a parallelism slot gives up on interrupt with a terminal error.
func TestAcquire_Interrupted(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	j := New(parent, "job", nil, 1, phase.Backoff{}, time.Second, nil)
	if err := j.Acquire(); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(10*time.Millisecond, cancel)
	err := j.Acquire()
	if err == nil || !failure.IsTerminal(err) || failure.Reason(err) != failure.ReasonInterrupted {
		t.Fatalf("%v", err)
	}
}
