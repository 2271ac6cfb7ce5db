// Package failure is the one place that decides whether an error is worth a
// retry. Landscaper calls these "normal" and "fatal" errors; here
// they are transient and terminal. Every package marks the errors it knows
// to be final with Terminal; everything else is transient, because a
// network error, a conflict or a not-yet-established CRD usually heals.
package failure

import (
	"context"
	"errors"
	"fmt"
)

// Kind says what the engine should do with an error. (Not to be confused
// with the classes A–E of deploy items in package dag.)
type Kind int

const (
	// Transient errors repeat the current phase after a growing pause.
	Transient Kind = iota
	// Terminal errors end the flow at once as Failed or DeleteFailed.
	Terminal
)

func (c Kind) String() string {
	if c == Terminal {
		return "terminal"
	}
	return "transient"
}

type classified struct {
	kind   Kind
	reason string
	err    error
}

func (e *classified) Error() string { return e.err.Error() }
func (e *classified) Unwrap() error { return e.err }

// NewTerminal marks err as final: retrying cannot help (invalid config,
// template error, schema violation, unknown deployer type, timeout).
// reason is a short CamelCase code such as "InvalidConfig".
func NewTerminal(reason string, err error) error {
	if err == nil {
		return nil
	}
	return &classified{kind: Terminal, reason: reason, err: err}
}

// Terminalf is NewTerminal with a formatted message.
func Terminalf(reason, format string, args ...any) error {
	return NewTerminal(reason, fmt.Errorf(format, args...))
}

// NewTransient marks err as retryable with a reason code. Unmarked errors
// are transient too; use this to attach the reason.
func NewTransient(reason string, err error) error {
	if err == nil {
		return nil
	}
	return &classified{kind: Transient, reason: reason, err: err}
}

// KindOf returns the kind of err: Terminal if any error in its chain was
// marked terminal, it is a context deadline or it says a size limit was
// exceeded (IsTooLarge, even when marked transient), Transient otherwise.
func KindOf(err error) Kind {
	if IsTooLarge(err) {
		return Terminal
	}
	var c *classified
	if errors.As(err, &c) {
		return c.kind
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return Terminal
	}
	return Transient
}

// IsTerminal reports whether err must end the flow at once.
func IsTerminal(err error) bool { return err != nil && KindOf(err) == Terminal }

// Reason returns the reason code attached to err, or "" if none; an
// error that says a size limit was exceeded (IsTooLarge) has
// ReasonTooLarge unless it was marked terminal with a reason of its own.
func Reason(err error) string {
	var c *classified
	found := errors.As(err, &c)
	if (!found || c.kind != Terminal) && IsTooLarge(err) {
		return ReasonTooLarge
	}
	if found {
		return c.reason
	}
	return ""
}

// Reasons that more than one package gives or tests, named once (the
// lastError reasons of Landscaper's deployer contract among them).
const (
	// ReasonPanic is the reason of the error a recovered panic becomes.
	ReasonPanic = "Panic"
	// ReasonInterrupted: the job was interrupted (the caller's context
	// ended) before the object finished.
	ReasonInterrupted = "Interrupted"
	// ReasonProgressingTimeout: the deploy item's work took longer than
	// its timeout.
	ReasonProgressingTimeout = "ProgressingTimeout"
	// ReasonPickupTimeout: no deployer picked the item's job up in time.
	ReasonPickupTimeout = "PickupTimeout"
	// ReasonAbortTimeout: a deployer call told to stop did not return
	// within the abort timeout and was given up.
	ReasonAbortTimeout = "AbortTimeout"
)

// FromPanic turns the value of a recovered panic in what (a deployer
// call, an installation's flow …) into a terminal error, so one broken
// object fails instead of the whole process with everything it recorded.
func FromPanic(what string, p any) error {
	return Terminalf(ReasonPanic, "%s panicked: %v", what, p)
}
