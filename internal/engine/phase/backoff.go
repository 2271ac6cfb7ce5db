package phase

import (
	"context"
	"math/rand/v2"
	"time"
)

// Backoff is the growing pause between retries of a phase after a
// transient error: Base·2^attempt, capped at Cap, with jitter so that many
// items that failed together do not retry together.
type Backoff struct {
	Base time.Duration
	Cap  time.Duration
	// MaxRetries ends the retries of one phase (0 = no limit). A Terraform
	// apply must end; the per-item timeout and the caller's context bound
	// retries too.
	MaxRetries int
}

// DefaultBackoff suits real clusters: 1s, 2s, 4s … 30s, at most 10 retries.
var DefaultBackoff = Backoff{Base: time.Second, Cap: 30 * time.Second, MaxRetries: 10}

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

// Retry waits before retry number attempt and reports whether to retry:
// false when MaxRetries is reached or ctx ends during the pause.
func (b Backoff) Retry(ctx context.Context, attempt int) bool {
	if b.MaxRetries > 0 && attempt >= b.MaxRetries {
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
