package job

import (
	"context"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

func TestCallContext(t *testing.T) {
	tests := []struct {
		name      string
		rule      string
		timeout   time.Duration
		interrupt bool
		alive     time.Duration // the call context must still be alive after this
		endsBy    time.Duration // and must have ended by this
	}{
		{"Timeout", "the deploy item timeout bounds the call", 300 * time.Millisecond, false, 20 * time.Millisecond, 2 * time.Second},
		{"InterruptGrace", "after an interrupt a running call keeps its context for the grace period, then it is cancelled", 0, true, 20 * time.Millisecond, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			parent, cancel := context.WithCancel(context.Background())
			defer cancel()
			j := New(parent, "job", nil, 1, phase.Backoff{}, 300*time.Millisecond, nil)
			ctx, stop := j.CallContext(tt.timeout)
			defer stop()
			if tt.interrupt {
				cancel()
			}
			time.Sleep(tt.alive)
			if ctx.Err() != nil {
				t.Fatalf("%s: ended too early", tt.rule)
			}
			select {
			case <-ctx.Done():
			case <-time.After(tt.endsBy):
				t.Fatalf("%s: not ended", tt.rule)
			}
		})
	}
}

// TestAcquire_Interrupted proves a call waiting for a parallelism slot gives up on interrupt with a terminal error.
func TestAcquire_Interrupted(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	j := New(parent, "job", nil, 1, phase.Backoff{}, time.Second, nil)
	if err := j.Acquire(); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(10*time.Millisecond, cancel)
	err := j.Acquire()
	if err == nil || !failure.IsTerminal(err) || failure.Reason(err) != snapshot.ReasonInterrupted {
		t.Fatalf("%v", err)
	}
}
