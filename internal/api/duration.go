package api

import (
	"encoding/json"
	"fmt"
	"time"
)

// The default timeouts of Landscaper's deployer contract
// (ARCHITECTURE.md, "Timeouts"; deployer.Timeouts says who measures each).
const (
	// DefaultDeployItemTimeout bounds a deploy item's Progressing phase
	// when its template sets no timeout (deployItemTimeouts.progressingDefault).
	DefaultDeployItemTimeout = 10 * time.Minute
	// DefaultPickupTimeout bounds the wait for a deployer in a cluster to
	// pick a job up: Landscaper's deployItemTimeouts.pickup.
	DefaultPickupTimeout = 5 * time.Minute
	// DefaultAbortTimeout is how long a deployer call may take to return
	// once it was told to stop. It is far below Landscaper's five minutes
	// (deployItemTimeouts.abort): an interrupt (Ctrl-C) should return
	// promptly, and the deployers of Landscaper v0.98 ignore the abort
	// request anyway (they stop when the job is ended from this side;
	// deployer/external).
	DefaultAbortTimeout = 30 * time.Second
)

// Duration is a deploy item timeout as Landscaper writes it: a Go duration
// string ("20m") or "none", which disables the timeout.
type Duration struct {
	Duration time.Duration
	None     bool
}

// UnmarshalJSON accepts "none" and Go duration strings.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("timeout must be a string like \"10m\" or \"none\": %w", err)
	}
	if s == "none" {
		*d = Duration{None: true}
		return nil
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("invalid timeout %q: %w", s, err)
	}
	if v < 0 {
		return fmt.Errorf("invalid timeout %q: must not be negative", s)
	}
	*d = Duration{Duration: v}
	return nil
}

// MarshalJSON writes the form UnmarshalJSON reads.
func (d Duration) MarshalJSON() ([]byte, error) {
	if d.None {
		return json.Marshal("none")
	}
	return json.Marshal(d.Duration.String())
}

// Effective returns the timeout to apply: 0 means no timeout.
func (d *Duration) Effective() time.Duration { return d.EffectiveOr(0) }

// EffectiveOr is Effective with def as the timeout of an unset d (0:
// DefaultDeployItemTimeout), the provider's progressing default.
func (d *Duration) EffectiveOr(def time.Duration) time.Duration {
	switch {
	case d == nil && def > 0:
		return def
	case d == nil:
		return DefaultDeployItemTimeout
	case d.None:
		return 0
	default:
		return d.Duration
	}
}
