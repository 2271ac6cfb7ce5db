package deployertest

import (
	"net/http"
	"sync"
)

// Request is one request a RequestLog saw.
type Request struct {
	Method, Path, Query string
}

// String is "METHOD path", with "?query" when there is one.
func (r Request) String() string {
	if r.Query == "" {
		return r.Method + " " + r.Path
	}
	return r.Method + " " + r.Path + "?" + r.Query
}

// RequestLog records, in order, the requests of the clients of a
// target.Pool (target.WithWrapTransport(log.Wrap)): where RequestCounter
// says how many, it says which.
type RequestLog struct {
	mu   sync.Mutex
	reqs []Request
}

// Wrap is a rest.Config WrapTransport.
func (l *RequestLog) Wrap(rt http.RoundTripper) http.RoundTripper {
	return roundTripper(func(req *http.Request) (*http.Response, error) {
		l.mu.Lock()
		l.reqs = append(l.reqs, Request{Method: req.Method, Path: req.URL.Path, Query: req.URL.RawQuery})
		l.mu.Unlock()
		return rt.RoundTrip(req)
	})
}

// Take returns the requests recorded since the last Take.
func (l *RequestLog) Take() []Request {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.reqs
	l.reqs = nil
	return out
}
