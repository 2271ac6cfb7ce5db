package deployer

import (
	"context"
	"errors"
	"sync"
)

// SharedReads lets the deployer calls of one job that reads the whole
// installation (a destroy, a drift check) share reads: one list of a kind
// answers for every deploy item instead of one read per object. What a
// deployer puts here is as old as the job: use it only where a stale
// answer is caught (a DELETE with preconditions) or harmless (drift).
type SharedReads struct {
	mu      sync.Mutex
	entries map[any]*sharedRead
}

var errReadUnfinished = errors.New("the shared read did not finish")

type sharedRead struct {
	done  chan struct{}
	value any
	err   error
}

// NewSharedReads returns an empty SharedReads.
func NewSharedReads() *SharedReads { return &SharedReads{entries: map[any]*sharedRead{}} }

// Do returns what read returned for key: the first caller runs read,
// callers with the same key wait for it and get the same value and error.
// key must be comparable. A waiter whose ctx ends returns ctx's error; the
// read itself runs on with its first caller's ctx.
func (r *SharedReads) Do(ctx context.Context, key any, read func(context.Context) (any, error)) (any, error) {
	r.mu.Lock()
	e, ok := r.entries[key]
	if !ok {
		e = &sharedRead{done: make(chan struct{})}
		r.entries[key] = e
	}
	r.mu.Unlock()
	if !ok {
		e.err = errReadUnfinished // if read panics
		defer close(e.done)
		e.value, e.err = read(ctx)
		return e.value, e.err
	}
	select {
	case <-e.done:
		return e.value, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
