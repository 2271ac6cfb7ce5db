package parallel

import (
	"runtime"
	"sync/atomic"
	"testing"
)

// TestEach: every index once, and a panic reaches the caller.
func TestEach(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	counts := make([]atomic.Int32, 100)
	Each(len(counts), func(i int) { counts[i].Add(1) })
	for i := range counts {
		if n := counts[i].Load(); n != 1 {
			t.Fatalf("index %d called %d times", i, n)
		}
	}
	defer func() {
		if p := recover(); p != "boom" {
			t.Errorf("recovered %v, want the panic of f", p)
		}
	}()
	Each(10, func(i int) {
		if i == 7 {
			panic("boom")
		}
	})
	t.Error("no panic")
}
