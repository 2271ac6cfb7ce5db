package ocireg

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"oras.land/oras-go/v2/registry/remote/auth"
)

// TestCredentials_PerHost proves each host gets its own credential (a
// password, a token, a config.json entry), others none.
func TestCredentials_PerHost(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "config.json")
	// "dXNlcjpwYXNz" is base64 of "user:pass".
	if err := os.WriteFile(cfg, []byte(`{"auths": {"docker.test": {"auth": "dXNlcjpwYXNz"}}, "credsStore": "never-run"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := Credentials([]HostCredential{
		{Host: "basic.test:5000", Username: "u", Password: "p"},
		{Host: "token.test", IdentityToken: "t"},
		{Host: "docker.test", DockerConfig: cfg},
	})
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]auth.Credential{
		"basic.test:5000": {Username: "u", Password: "p"},
		"token.test":      {RefreshToken: "t"},
		"docker.test":     {Username: "user", Password: "pass"},
		"other.test":      auth.EmptyCredential,
	} {
		got, err := f(context.Background(), host)
		if err != nil || got != want {
			t.Errorf("%s: got %+v, %v", host, got, err)
		}
	}
}

// TestCredentials_Invalid proves ambiguous entries are rejected without
// quoting a secret.
func TestCredentials_Invalid(t *testing.T) {
	for name, hosts := range map[string][]HostCredential{
		"no host":      {{Username: "u", Password: "secret-1"}},
		"duplicate":    {{Host: "a", IdentityToken: "secret-1"}, {Host: "a", IdentityToken: "secret-1"}},
		"two kinds":    {{Host: "a", Username: "u", Password: "secret-1", IdentityToken: "secret-1"}},
		"half basic":   {{Host: "a", Password: "secret-1"}},
		"nothing":      {{Host: "a"}},
		"invalid path": {{Host: "a", DockerConfig: "/nonexistent/dir/\x00"}},
	} {
		_, err := Credentials(hosts)
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if strings.Contains(err.Error(), "secret-1") {
			t.Errorf("%s: error quotes the secret: %v", name, err)
		}
	}
}
