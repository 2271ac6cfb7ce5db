// Package job is what every object of one job shares: the job ID, the
// deployer registry, the parallelism limit, the retry backoff, the logger,
// and the interrupt, which is the end of the caller's context (Landscaper's
// interrupt annotation; ARCHITECTURE.md, "Interrupts"). It has no flow of
// its own.
package job

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Logger receives phase transitions and deploy item starts and finishes.
// Key/value pairs never carry configs, imports or targets.
type Logger interface {
	Info(msg string, kv ...any)
}

// Job is the shared context of one walk through an installation tree.
type Job struct {
	ID       string
	Registry *deployer.Registry
	Backoff  phase.Backoff
	// Grace is how long a running deployer call may go on after an
	// interrupt: for the first half it may finish what it does, then its
	// context is cancelled and it has the second half to return what it
	// did. A call still running then is given up. Grace is also the abort
	// wait of a call whose own timeout ended it.
	Grace time.Duration
	Log   Logger
	// Clusters is handed to export executions (see template.ClusterAccess).
	Clusters template.ClusterAccess

	interrupt   context.Context
	slots       chan struct{}
	interrupted atomic.Pointer[time.Time] // when the interrupt came
}

// New starts a job. The end of ctx is the interrupt; parallelism bounds the
// deployer calls running at once across the whole tree (minimum 1).
func New(ctx context.Context, id string, reg *deployer.Registry, parallelism int, backoff phase.Backoff, grace time.Duration, log Logger) *Job {
	if parallelism < 1 {
		parallelism = 1
	}
	if log == nil {
		log = discard{}
	}
	j := &Job{ID: id, Registry: reg, Backoff: backoff, Grace: grace, Log: log,
		interrupt: ctx, slots: make(chan struct{}, parallelism)}
	context.AfterFunc(ctx, func() {
		now := time.Now()
		j.interrupted.CompareAndSwap(nil, &now)
	})
	return j
}

// interruptedAt is when the interrupt came; zero before it.
func (j *Job) interruptedAt() time.Time {
	if j.interrupt.Err() == nil {
		return time.Time{}
	}
	now := time.Now()
	j.interrupted.CompareAndSwap(nil, &now) // the AfterFunc may not have run yet
	return *j.interrupted.Load()
}

// Context is the job's context: it ends with the interrupt. Phase retries
// wait on it.
func (j *Job) Context() context.Context { return j.interrupt }

// Interrupted reports whether the job was interrupted.
func (j *Job) Interrupted() bool { return j.interrupt.Err() != nil }

// InterruptError is the terminal error of an object the interrupt ended.
func (j *Job) InterruptError() error {
	return failure.Terminalf(snapshot.ReasonInterrupted, "interrupted: %v", context.Cause(j.interrupt))
}

// Acquire takes one of the parallelism slots; it fails only on interrupt.
func (j *Job) Acquire() error {
	select {
	case j.slots <- struct{}{}:
		return nil
	case <-j.interrupt.Done():
		return j.InterruptError()
	}
}

// Release returns a slot taken by Acquire.
func (j *Job) Release() { <-j.slots }

// Slot is one deployer call's parallelism slot, which the call may give
// back while it only waits (deployer.Idle).
type Slot struct {
	j            *Job
	mu           sync.Mutex
	held, closed bool
}

// AcquireSlot takes a slot like Acquire; the caller must call Close.
func (j *Job) AcquireSlot() (*Slot, error) {
	if err := j.Acquire(); err != nil {
		return nil, err
	}
	return &Slot{j: j, held: true}, nil
}

// Idle gives the slot back; resume takes one again, waiting until one is
// free (also after an interrupt, so that the accounting stays exact).
// After Close, resume takes nothing: a call given up after its grace
// period must not hold a slot nobody returns.
func (s *Slot) Idle() (resume func()) {
	s.mu.Lock()
	if s.held {
		s.held = false
		s.j.Release()
	}
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		if s.held || s.closed {
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		s.j.slots <- struct{}{}
		s.mu.Lock()
		defer s.mu.Unlock()
		if s.held || s.closed {
			s.j.Release()
			return
		}
		s.held = true
	}
}

// Close returns the slot if it is held.
func (s *Slot) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	if s.held {
		s.held = false
		s.j.Release()
	}
}

// CallContext returns the context of one deployer call: bounded by timeout
// (0 = none) and cancelled half the Grace after an interrupt, so a running
// call may still finish what it is doing. The caller must call cancel.
func (j *Job) CallContext(timeout time.Duration) (context.Context, context.CancelFunc) {
	base, cancel := context.WithCancelCause(context.WithoutCancel(j.interrupt))
	stopWatch := context.AfterFunc(j.interrupt, func() {
		timer := time.NewTimer(time.Until(j.interruptedAt().Add(j.Grace / 2)))
		defer timer.Stop()
		select {
		case <-timer.C:
			cancel(fmt.Errorf("interrupted; grace period of %s over", j.Grace))
		case <-base.Done():
		}
	})
	ctx, stopTimeout := base, context.CancelFunc(func() {})
	if timeout > 0 {
		ctx, stopTimeout = context.WithTimeout(base, timeout)
	}
	return ctx, func() {
		stopWatch()
		stopTimeout()
		cancel(nil)
	}
}

// AbortWait is how long to wait for a deployer call whose context just
// ended before giving it up: what is left of Grace after an interrupt
// (Grace counts once from the interrupt), else Grace.
func (j *Job) AbortWait() time.Duration {
	if at := j.interruptedAt(); !at.IsZero() {
		return max(0, time.Until(at.Add(j.Grace)))
	}
	return j.Grace
}

type discard struct{}

func (discard) Info(string, ...any) {}
