package deployer

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Concurrent callers of one key share one read, its value and its error;
// another key reads on its own.
func TestSharedReads_OneReadPerKey(t *testing.T) {
	r := NewSharedReads()
	ctx := context.Background()
	var reads atomic.Int32
	release := make(chan struct{})
	read := func(context.Context) (any, error) {
		reads.Add(1)
		<-release
		return "listed", errors.New("partial")
	}
	var wg sync.WaitGroup
	for range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			v, err := r.Do(ctx, "a", read)
			if v != "listed" || err == nil || err.Error() != "partial" {
				t.Errorf("Do = %v, %v; want the first read's value and error", v, err)
			}
		}()
	}
	time.Sleep(10 * time.Millisecond)
	close(release)
	wg.Wait()
	if n := reads.Load(); n != 1 {
		t.Fatalf("%d reads for one key, want 1", n)
	}
	if v, _ := r.Do(ctx, "b", func(context.Context) (any, error) { return "other", nil }); v != "other" {
		t.Fatalf("key b = %v, want its own read", v)
	}
}

// A waiter whose context ends does not wait for the read; a read that
// panicked leaves an error, not a hang, to later callers.
func TestSharedReads_WaiterCancelAndPanic(t *testing.T) {
	r := NewSharedReads()
	block := make(chan struct{})
	defer close(block)
	go func() {
		_, _ = r.Do(context.Background(), "slow", func(context.Context) (any, error) { <-block; return nil, nil })
	}()
	time.Sleep(10 * time.Millisecond)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Do(ctx, "slow", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled waiter got %v, want context.Canceled", err)
	}
	func() {
		defer func() { _ = recover() }()
		_, _ = r.Do(context.Background(), "panics", func(context.Context) (any, error) { panic("boom") })
	}()
	if _, err := r.Do(context.Background(), "panics", nil); err == nil {
		t.Fatal("a read that panicked left no error")
	}
}
