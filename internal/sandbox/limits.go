package sandbox

import (
	"errors"
	"fmt"
	"time"
)

// Limits bound one job. Zero fields take the DefaultLimits value. They
// are render_limits' (the provider block) for the bounds they share.
type Limits struct {
	// Timeout is the job's wall time.
	Timeout time.Duration
	// MaxBytes bounds the job's output (as JSON).
	MaxBytes int64
	// MaxMemoryBytes bounds the memory of the child process.
	MaxMemoryBytes int64
	// MaxStackBytes bounds the stack of any goroutine of the child.
	MaxStackBytes int64
}

// DefaultLimits are render_limits' defaults.
func DefaultLimits() Limits {
	return Limits{Timeout: 30 * time.Second, MaxBytes: 64 << 20, MaxMemoryBytes: 512 << 20, MaxStackBytes: 64 << 20}
}

// WithDefaults returns l with every zero field set to its default.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	if l.Timeout <= 0 {
		l.Timeout = d.Timeout
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = d.MaxBytes
	}
	if l.MaxMemoryBytes <= 0 {
		l.MaxMemoryBytes = d.MaxMemoryBytes
	}
	if l.MaxStackBytes <= 0 {
		l.MaxStackBytes = d.MaxStackBytes
	}
	return l
}

// ErrLimit is what every LimitError is.
var ErrLimit = errors.New("render limit exceeded")

// LimitError says which limit a job exceeded and how to raise it.
type LimitError struct {
	// What the job did, without any of its input.
	What string
	// Setting is the render_limits attribute that bounds it.
	Setting string
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("%s: %s (raise render_limits.%s in the provider block if the blueprint is trusted)", ErrLimit, e.What, e.Setting)
}

// Is makes errors.Is(err, ErrLimit) hold.
func (e *LimitError) Is(target error) bool { return target == ErrLimit }
