package manifest

import (
	"context"
	"fmt"
	"time"
)

// Poll intervals: the first check comes quickly because most objects are
// ready within a second. During the first pollFastFor the interval stays
// at most pollFastMax, so a rollout of a few seconds is seen within a
// quarter second of finishing (Landscaper rounds it up to 5 s); after that
// it grows to pollMax so that a slow rollout does not flood the API server.
const (
	pollFirst   = 50 * time.Millisecond
	pollFastMax = 250 * time.Millisecond
	pollFastFor = 30 * time.Second
	pollMax     = 2 * time.Second
)

// poll calls check until it reports done, it fails, or ctx ends. check
// returns a description of what is still missing; when ctx ends, that
// description is part of the error, so a timeout says what was not ready.
func poll(ctx context.Context, what string, check func(context.Context) (pending string, err error)) error {
	interval, start := pollFirst, time.Now()
	lastPending := ""
	for {
		pending, err := check(ctx)
		if err != nil {
			if ctx.Err() != nil {
				// The deadline hit during a check: say what was still
				// missing at the last complete one.
				if lastPending != "" {
					return fmt.Errorf("%s: %s: %w", what, lastPending, ctx.Err())
				}
				return fmt.Errorf("%s: %w", what, ctx.Err())
			}
			return err
		}
		lastPending = pending
		if pending == "" {
			return nil
		}
		t := time.NewTimer(interval)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%s: %s: %w", what, pending, ctx.Err())
		case <-t.C:
		}
		limit := pollMax
		if time.Since(start) < pollFastFor {
			limit = pollFastMax
		}
		interval = min(interval*3/2, limit)
	}
}
