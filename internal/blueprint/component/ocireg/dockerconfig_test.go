package ocireg

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"oras.land/oras-go/v2/registry/remote/auth"
)

// TestDockerConfigCredentials reads each form of an `auths` entry, keyed
// as Docker writes them (a URL for Docker Hub, host:port otherwise).
func TestDockerConfigCredentials(t *testing.T) {
	b64 := base64.StdEncoding.EncodeToString([]byte("user:pa:ss"))
	got, err := DockerConfigCredentials([]byte(`{"auths": {
		"registry.test:5000": {"auth": "` + b64 + `"},
		"https://index.docker.io/v1/": {"username": "hub", "password": "pw"},
		"token.test": {"identitytoken": "refresh"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	for host, want := range map[string]auth.Credential{
		"registry.test:5000":   {Username: "user", Password: "pa:ss"},
		"registry-1.docker.io": {Username: "hub", Password: "pw"},
		"docker.io":            {Username: "hub", Password: "pw"},
		"token.test":           {RefreshToken: "refresh"},
	} {
		if got[host] != want {
			t.Errorf("%s: got %+v, want %+v", host, got[host], want)
		}
	}
	for name, doc := range map[string]string{
		"not json":   `secret-1`,
		"bad base64": `{"auths": {"a": {"auth": "secret-1!"}}}`,
		"no colon":   `{"auths": {"a": {"auth": "` + base64.StdEncoding.EncodeToString([]byte("secret-1")) + `"}}}`,
	} {
		_, err := DockerConfigCredentials([]byte(doc))
		if err == nil {
			t.Errorf("%s: accepted", name)
		} else if strings.Contains(err.Error(), "secret-1") {
			t.Errorf("%s: error quotes the content: %v", name, err)
		}
	}
}

// TestWithCredentials proves a Context's pull secrets come before the
// provider's credentials for their hosts, and only for them.
func TestWithCredentials(t *testing.T) {
	base, err := Credentials([]HostCredential{{Host: "a.test", Username: "provider", Password: "p"}, {Host: "b.test", IdentityToken: "t"}})
	if err != nil {
		t.Fatal(err)
	}
	c := New(Options{Credential: base}).WithCredentials(map[string]auth.Credential{"a.test": {Username: "context", Password: "c"}})
	for host, want := range map[string]auth.Credential{
		"a.test": {Username: "context", Password: "c"},
		"b.test": {RefreshToken: "t"},
		"c.test": auth.EmptyCredential,
	} {
		if got, err := c.credential(context.Background(), host); err != nil || got != want {
			t.Errorf("%s: got %+v, %v; want %+v", host, got, err, want)
		}
	}
}
