package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// The test binary is the child: each kind is one behaviour.
func init() {
	Serve("test-ask", func(in json.RawMessage, call Call) (any, error) {
		var n int
		if err := json.Unmarshal(in, &n); err != nil {
			return nil, err
		}
		ans, err := call("double", n)
		if err != nil {
			return nil, err
		}
		return ans, nil
	})
	Serve("test-spin", func(json.RawMessage, Call) (any, error) {
		for {
			runtime.Gosched() // computes without end, as a hostile template does
		}
	})
	Serve("test-alloc", func(json.RawMessage, Call) (any, error) {
		var keep [][]byte
		for {
			keep = append(keep, make([]byte, 16<<20))
			for _, b := range keep[len(keep)-1:] {
				for i := range b {
					b[i] = 1
				}
			}
		}
	})
	Serve("test-large", func(json.RawMessage, Call) (any, error) { return strings.Repeat("x", 2<<20), nil })
	Serve("test-gc", func(json.RawMessage, Call) (any, error) {
		percent := debug.SetGCPercent(100)
		debug.SetGCPercent(percent)
		return percent, nil
	})
	Serve("test-fail", func(json.RawMessage, Call) (any, error) { return nil, errors.New("the handler's error") })
}

// A job runs in the child and asks the parent; the handler's error comes
// back as its text.
func TestRun_AsksAndAnswers(t *testing.T) {
	var got int
	err := Run(context.Background(), "test-ask", 21, Limits{}, func(name string, args json.RawMessage) (any, error) {
		var n int
		_ = json.Unmarshal(args, &n)
		return 2 * n, nil
	}, &got)
	if err != nil || got != 42 {
		t.Fatalf("got %d, %v", got, err)
	}
	if err := Run(context.Background(), "test-fail", nil, Limits{}, nil, &got); err == nil || err.Error() != "the handler's error" {
		t.Fatalf("err = %v", err)
	}
}

// The job runs from an init function, while package startup still
// pauses the collector for the inits: the child resumes it first, or a
// render would collect nothing up to its memory limit.
func TestRun_CollectorRunsInTheChild(t *testing.T) {
	var percent int
	if err := Run(context.Background(), "test-gc", nil, Limits{}, nil, &percent); err != nil || percent != 100 {
		t.Fatalf("the child's job ran with GC percent %d (err %v), want 100", percent, err)
	}
}

// Each limit stops the child and names itself; Run returns once the
// child is gone, within the timeout and a little.
func TestRun_Limits(t *testing.T) {
	for _, tc := range []struct {
		kind, setting string
		l             Limits
	}{
		{"test-spin", "timeout", Limits{Timeout: time.Second}},
		{"test-alloc", "max_memory_mib", Limits{Timeout: 20 * time.Second, MaxMemoryBytes: 128 << 20}},
		{"test-large", "max_bytes", Limits{MaxBytes: 1 << 20}},
	} {
		start := time.Now()
		var out any
		err := Run(context.Background(), tc.kind, nil, tc.l, nil, &out)
		var le *LimitError
		if !errors.As(err, &le) || le.Setting != tc.setting || !errors.Is(err, ErrLimit) {
			t.Errorf("%s: err = %v, want the %s limit", tc.kind, err, tc.setting)
		}
		if d := time.Since(start); d > tc.l.WithDefaults().Timeout+5*time.Second {
			t.Errorf("%s: took %s", tc.kind, d)
		}
	}
}

// Cancelling the caller kills the child at once.
func TestRun_Cancel(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	var out any
	err := Run(ctx, "test-spin", nil, Limits{}, nil, &out)
	if err == nil || errors.Is(err, ErrLimit) || time.Since(start) > 10*time.Second {
		t.Fatalf("err = %v after %s", err, time.Since(start))
	}
}
