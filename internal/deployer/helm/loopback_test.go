package helm

import "testing"

func TestLoopbackHostIsExact(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost":                  true,
		"localhost:5000":             true,
		"127.0.0.1":                  true,
		"127.0.0.1:5000":             true,
		"127.1.2.3:80":               true,
		"[::1]:5000":                 true,
		"::1":                        true,
		"localhost.attacker.example": false,
		"127.0.0.1.nip.io:5000":      false,
		"localhostx:5000":            false,
		"10.0.0.1:5000":              false,
		"registry.example:443":       false,
		"":                           false,
	} {
		if got := loopbackHost(host); got != want {
			t.Errorf("loopbackHost(%q) = %v, want %v", host, got, want)
		}
	}
}
