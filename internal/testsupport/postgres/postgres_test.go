package postgres

import (
	"net"
	"net/url"
	"testing"
)

// TestStart proves that the server accepts TCP connections on the port its
// connection string names, and that it is gone after the test.
func TestStart(t *testing.T) {
	var addr string
	t.Run("server", func(t *testing.T) {
		conn := Start(t)
		u, err := url.Parse(conn)
		if err != nil {
			t.Fatal(err)
		}
		addr = u.Host
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatalf("connecting to %s: %v", addr, err)
		}
		_ = c.Close()
	})
	if addr == "" {
		return // skipped without the test environment
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		_ = c.Close()
		t.Errorf("the server on %s still accepts connections after its test ended", addr)
	}
}
