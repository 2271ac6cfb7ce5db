package deployer

import (
	"context"
	"errors"
	"time"
)

// Timeouts are one deployer call's timeouts of Landscaper's deployer
// contract. The engine fills them at the call's start (Item.Timeouts,
// defaults in package api); each is measured by exactly one side:
//   - Progressing bounds the item's work. The engine measures it from the
//     call's start and ends the call's context then — unless the item's
//     deployer hands it off (HandsOff): that deployer measures it itself,
//     from the moment the other process picked the item up.
//   - Pickup bounds the wait for that pickup; only a deployer that hands
//     items off measures it.
//   - Abort is how long a call may take to return once it was told to
//     stop. The engine measures it from the end of the call's context
//     (after an interrupt once for all calls, from the interrupt; the
//     deadline travels as the context's cause, AbortDeadline) and then
//     gives the call up. A deployer that hands items off and stops the
//     other process at its own progressing or pickup timeout measures the
//     abort timeout of that stop itself.
//
// Zero is none for Progressing and Pickup; an Abort of zero (a test
// calling a deployer directly) means api.DefaultAbortTimeout.
type Timeouts struct {
	Progressing time.Duration
	Pickup      time.Duration
	Abort       time.Duration
}

// HandsOff is a Deployer that hands deploy items to another process (a
// deployer in a cluster) which picks them up. HandsOff reports whether
// the calls of item go to such a process; for those the deployer
// measures Timeouts.Pickup and Timeouts.Progressing itself (the latter
// from the pickup, as Landscaper's contract counts it), and bounds its
// own waits by them, so the engine does not bound the call by
// Progressing. The Registry asks the registered deployer (Registry.HandsOff).
type HandsOff interface {
	HandsOff(item Item) bool
}

// Stopped is the cause (context.Cause) with which the engine ends a call's
// context at an interrupt: why, and when the abort timeout the engine
// measures ends, after which it gives the call up.
type Stopped struct {
	Err error
	// Deadline is when the call is given up.
	Deadline time.Time
}

func (s *Stopped) Error() string { return s.Err.Error() }
func (s *Stopped) Unwrap() error { return s.Err }

// AbortDeadline is when the engine gives up a call whose ctx ended (the
// Deadline of a Stopped cause); false when ctx carries none. A deployer
// that must end work elsewhere before it (deployer/external) plans by it
// instead of measuring the abort timeout a second time.
func AbortDeadline(ctx context.Context) (time.Time, bool) {
	var s *Stopped
	if errors.As(context.Cause(ctx), &s) {
		return s.Deadline, true
	}
	return time.Time{}, false
}
