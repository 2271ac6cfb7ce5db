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
	// AbortTimeout is the deployer contract's abort timeout: how long a
	// deployer call may take to return after it was told to stop — its
	// context is cancelled at the interrupt, or ends at its item's
	// timeout. A call still running then is given up
	// (ARCHITECTURE.md, "Interrupts").
	AbortTimeout time.Duration
	// DefaultTimeout bounds the calls of items whose template sets no
	// timeout (the contract's progressing default); 0:
	// api.DefaultDeployItemTimeout.
	DefaultTimeout time.Duration
	// PickupTimeout is the contract's pickup timeout, handed to every
	// call (deployer.Timeouts.Pickup); 0: none.
	PickupTimeout time.Duration
	// SharedReads, when set (a destroy), is handed to every deployer
	// call of the job (deployer.Item.SharedReads).
	SharedReads *deployer.SharedReads
	// LandscaperContext is the content of the root installation's
	// Landscaper Context, handed to every deployer call
	// (deployer.Item.Context); nil: none.
	LandscaperContext map[string]any
	// ProviderRefs are the Targets of the root's imports that may take a
	// kubeconfig of the provider block; every target a deployer call gets
	// is checked against them (execution.CheckTarget). The zero value
	// allows none.
	ProviderRefs snapshot.ProviderRefs
	Log          Logger
	// Clusters is handed to export executions (see template.ClusterAccess).
	Clusters template.ClusterAccess

	interrupt   context.Context
	slots       chan struct{}
	interrupted atomic.Pointer[time.Time] // when the interrupt came
}

// New starts a job. The end of ctx is the interrupt; parallelism bounds the
// deployer calls running at once across the whole tree (minimum 1).
func New(ctx context.Context, id string, reg *deployer.Registry, parallelism int, backoff phase.Backoff, abortTimeout time.Duration, log Logger) *Job {
	if parallelism < 1 {
		parallelism = 1
	}
	if log == nil {
		log = discard{}
	}
	j := &Job{ID: id, Registry: reg, Backoff: backoff, AbortTimeout: abortTimeout, Log: log,
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
	return failure.Terminalf(failure.ReasonInterrupted, "interrupted: %v", context.Cause(j.interrupt))
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
// back while it only waits (deployer.Item.GoIdle).
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
// After Close, resume takes nothing: a call given up after its abort timeout
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
// (0 = none) and cancelled at the interrupt, as Landscaper aborts a
// running deploy item at once; the call then has AbortTimeout to return
// (AbortWait), and its context's cause (deployer.Stopped) says until
// when. The caller must call cancel.
func (j *Job) CallContext(timeout time.Duration) (context.Context, context.CancelFunc) {
	base, cancel := context.WithCancelCause(context.WithoutCancel(j.interrupt))
	stopWatch := context.AfterFunc(j.interrupt, func() {
		cancel(&deployer.Stopped{Deadline: j.interruptedAt().Add(j.AbortTimeout),
			Err: fmt.Errorf("interrupted (%w); the deployer has the abort timeout of %s to stop", context.Cause(j.interrupt), j.AbortTimeout)})
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
// ended before giving it up: what is left of AbortTimeout after an
// interrupt (it counts once, from the interrupt), else AbortTimeout.
func (j *Job) AbortWait() time.Duration {
	if at := j.interruptedAt(); !at.IsZero() {
		return max(0, time.Until(at.Add(j.AbortTimeout)))
	}
	return j.AbortTimeout
}

type discard struct{}

func (discard) Info(string, ...any) {}
