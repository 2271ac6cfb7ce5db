package phase

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// DefaultMaxRetries is how many times a phase, or a deployer call, is
// retried after transient errors before the flow gives up with the last
// one (ARCHITECTURE.md, "Errors"). Landscaper retries normal errors until
// the deploy item's timeout ends; here a phase without a timeout of its
// own (an installation's, an execution's) would otherwise retry until the
// caller's context ends, and a terraform apply should report an error
// that does not heal well before that: with DefaultBackoff, 10 retries
// pause for 1.5 to 3 minutes in all. Backoff.MaxRetries 0 gives Landscaper's
// behaviour: retry until the item's timeout or the caller's context ends.
const DefaultMaxRetries = 10

// Backoff is the growing pause between retries of a phase after a
// transient error: Base·2^attempt, capped at Cap, with jitter so that many
// items that failed together do not retry together.
type Backoff struct {
	Base time.Duration
	Cap  time.Duration
	// MaxRetries ends the retries of one phase or deployer call (0 = no
	// limit: only the per-item timeout and the caller's context bound
	// them); see DefaultMaxRetries.
	MaxRetries int
}

// DefaultBackoff suits real clusters: 1s, 2s, 4s … 30s, at most
// DefaultMaxRetries retries.
var DefaultBackoff = Backoff{Base: time.Second, Cap: 30 * time.Second, MaxRetries: DefaultMaxRetries}

// Delay returns the pause before retry number attempt (0-based): a random
// duration in [d/2, d] where d = min(Cap, Base·2^attempt).
func (b Backoff) Delay(attempt int) time.Duration {
	base, limit := b.Base, b.Cap
	if base <= 0 {
		base = time.Millisecond
	}
	if limit < base {
		limit = base
	}
	d := base
	for i := 0; i < attempt && d < limit; i++ {
		d *= 2
	}
	if d > limit {
		d = limit
	}
	half := d / 2
	return half + time.Duration(rand.Int64N(int64(d-half)+1))
}

// Retry is the engine's one retry loop: the phase machine runs every step
// through it and a deploy item's deployer call too. It runs try until try
// returns nil or an error a retry cannot help: a terminal one
// (package failure), one after MaxRetries retries, or any once ctx ended
// — also during the pause before a retry, which grows with every retry
// (Delay). It returns try's last error (nil on success) and how many
// retries it made.
func (b Backoff) Retry(ctx context.Context, try func() error) (retries int, err error) {
	for {
		if err = try(); err == nil || !b.again(ctx, retries, err) {
			return retries, err
		}
		retries++
	}
}

// again decides after a failed try whether to try again, and waits the
// pause before retry number attempt when it does.
func (b Backoff) again(ctx context.Context, attempt int, err error) bool {
	if failure.IsTerminal(err) || ctx.Err() != nil || b.MaxRetries > 0 && attempt >= b.MaxRetries {
		return false
	}
	timer := time.NewTimer(b.Delay(attempt))
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}
