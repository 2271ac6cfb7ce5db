package deployertest

import (
	"net/http"
	"sync"
	"sync/atomic"
)

// RequestCounter counts the API requests of the clients of a target.Pool
// (target.WithWrapTransport(counter.Wrap)) by kind: reads (GET, HEAD and
// watches) and writes (everything else).
type RequestCounter struct {
	reads, writes atomic.Int64

	mu      sync.Mutex
	onWrite func()
}

// Wrap is a rest.Config WrapTransport.
func (c *RequestCounter) Wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		resp, err := rt.RoundTrip(req)
		if req.Method == http.MethodGet || req.Method == http.MethodHead {
			c.reads.Add(1)
			return resp, err
		}
		c.writes.Add(1)
		c.mu.Lock()
		hook := c.onWrite
		c.mu.Unlock()
		if hook != nil {
			hook()
		}
		return resp, err
	})
}

// Reset sets both counts to zero.
func (c *RequestCounter) Reset() { c.reads.Store(0); c.writes.Store(0) }

// Reads returns the number of read requests since the last Reset.
func (c *RequestCounter) Reads() int64 { return c.reads.Load() }

// Writes returns the number of write requests since the last Reset.
func (c *RequestCounter) Writes() int64 { return c.writes.Load() }

// OnWrite calls hook after every write request's response (nil: none).
func (c *RequestCounter) OnWrite(hook func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onWrite = hook
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }
