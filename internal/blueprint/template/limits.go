package template

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/sandbox"
)

// Limits bound what one execution may consume. Blueprints are untrusted
// code that runs at plan on the user's machine: every way to spend time or
// memory without bound is metered, and exceeding a limit is an error
// naming the limit, never a hang, an out-of-memory kill or a crash.
// Zero fields take the DefaultLimits value.
type Limits struct {
	// Timeout is the wall time of one execution.
	Timeout time.Duration
	// MaxSteps bounds GoTemplate loop iterations and template calls.
	MaxSteps int64
	// MaxBytes bounds the bytes of strings, lists and output one execution
	// builds (GoTemplate) and the rendered output of any execution.
	MaxBytes int64
	// MaxYAMLNodes bounds the nodes of a YAML document counted with its
	// aliases expanded, checked before Spiff (which expands them) sees it.
	MaxYAMLNodes int64
	// MaxMemoryBytes bounds the memory of the process a Spiff execution
	// runs in.
	MaxMemoryBytes int64
	// MaxStackBytes bounds the stack of a Spiff execution, i.e. how deep
	// lambdas may recurse.
	MaxStackBytes int64
}

// DefaultLimits are far above what real blueprints use (they render in
// milliseconds, with thousands of steps and kilobytes of output) and low
// enough that a hostile template fails within seconds: steps, bytes,
// aliases, stack and memory stop bombs long before the timeout, which
// only catches Spiff computing without end on a busy machine. The bounds
// shared with package sandbox take its defaults.
func DefaultLimits() Limits { return Limits{}.WithDefaults() }

// The defaults of the bounds that are the executors' own meters.
const (
	defaultMaxSteps     = 1_000_000
	defaultMaxYAMLNodes = 1_000_000
)

// Sandbox is l for the child processes of package sandbox (Spiff
// executions and mappings, a blueprint's Helm charts): the bounds the two
// share — timeout, output bytes, memory and stack; steps and YAML nodes
// are GoTemplate's and Spiff's own meters.
func (l Limits) Sandbox() sandbox.Limits {
	return sandbox.Limits{Timeout: l.Timeout, MaxBytes: l.MaxBytes, MaxMemoryBytes: l.MaxMemoryBytes, MaxStackBytes: l.MaxStackBytes}.WithDefaults()
}

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	s := l.Sandbox()
	l.Timeout, l.MaxBytes, l.MaxMemoryBytes, l.MaxStackBytes = s.Timeout, s.MaxBytes, s.MaxMemoryBytes, s.MaxStackBytes
	if l.MaxSteps <= 0 {
		l.MaxSteps = defaultMaxSteps
	}
	if l.MaxYAMLNodes <= 0 {
		l.MaxYAMLNodes = defaultMaxYAMLNodes
	}
	return l
}

// limitError names the limit and how to raise it; errors.Is(err,
// sandbox.ErrLimit) holds for it as for the sandbox's own.
func limitError(what, setting string) error {
	return &sandbox.LimitError{What: what, Setting: setting}
}

// budget meters one GoTemplate execution. Steps are counted on every loop
// iteration and template call (injected into the parse tree, see
// meterTree); bytes on every string or list a function builds.
type budget struct {
	ctx      context.Context
	deadline time.Time
	limits   Limits
	steps    atomic.Int64
	bytes    atomic.Int64
}

func newBudget(ctx context.Context, l Limits) *budget {
	if ctx == nil {
		ctx = context.Background()
	}
	b := &budget{ctx: ctx, limits: l, deadline: time.Now().Add(l.Timeout)}
	if d, ok := ctx.Deadline(); ok && d.Before(b.deadline) {
		b.deadline = d
	}
	return b
}

// step counts one step; every 1024 steps it also looks at the clock and
// the context, so that a cancelled plan stops a template within
// milliseconds.
func (b *budget) step() error {
	n := b.steps.Add(1)
	if n > b.limits.MaxSteps {
		return limitError(fmt.Sprintf("more than %d loop iterations and template calls", b.limits.MaxSteps), "max_steps")
	}
	if n&1023 == 0 {
		return b.alive()
	}
	return nil
}

// alive reports a cancelled context or a passed deadline.
func (b *budget) alive() error {
	if err := b.ctx.Err(); err != nil {
		return fmt.Errorf("rendering stopped: %w", err)
	}
	if time.Now().After(b.deadline) {
		return limitError(fmt.Sprintf("rendering took longer than %s", b.limits.Timeout), "timeout")
	}
	return nil
}

// charge accounts n bytes about to be built.
func (b *budget) charge(n int64) error {
	if n < 0 || b.bytes.Add(n) > b.limits.MaxBytes {
		return limitError(fmt.Sprintf("the template builds more than %d bytes of strings and lists", b.limits.MaxBytes), "max_bytes")
	}
	return nil
}
