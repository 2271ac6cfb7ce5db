// Package ociregistry runs a real OCI registry on loopback for one test: the
// CNCF distribution registry that `make tools` builds, with its storage in a
// temporary folder and, if asked, HTTP basic auth. Nothing leaves the machine.
//
//	reg := ociregistry.Start(t, ociregistry.Options{User: "u", Password: "p"})
//	ref := reg.Host() + "/charts/app:1.0.0"   // plain HTTP, no scheme
//
// The registry is stopped when the test ends. Without the test environment
// (testgate) the test is skipped; with it, a registry binary that `make tools`
// has not built fails the test.
package ociregistry

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/bcrypt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/daemon"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testgate"
)

// Binary is the name of the registry in the checkout's tools folder.
const Binary = "registry"

// startTimeout bounds the wait for the registry to say it listens; it
// usually takes well under a second, more on a loaded 2-core machine.
const startTimeout = 30 * time.Second

// Options configure a registry. The zero value is an anonymous registry.
type Options struct {
	// User and Password, when User is set, make every request need HTTP
	// basic auth with exactly these credentials.
	User, Password string
}

// Registry is a running registry.
type Registry struct {
	host string
}

// Host returns "127.0.0.1:<port>", the registry's address for references
// (host/repository:tag). It speaks plain HTTP.
func (r *Registry) Host() string { return r.host }

// Start runs a registry for t and returns once it answers `/v2/`.
func Start(t testing.TB, opts Options) *Registry {
	t.Helper()
	testgate.Require(t, "the OCI registry built by make tools")
	root, err := checkout.Root()
	if err != nil {
		t.Fatalf("ociregistry: %v", err)
	}
	bins, err := checkout.Tools(root, Binary)
	if err != nil {
		t.Fatalf("ociregistry: %v", err)
	}
	dir := t.TempDir()
	auth := ""
	if opts.User != "" {
		auth, err = writeHtpasswd(dir, opts.User, opts.Password)
		if err != nil {
			t.Fatalf("ociregistry: %v", err)
		}
	}
	// The port is chosen before the registry binds it, so another process
	// can take it in between; then try another one.
	for attempt := 1; ; attempt++ {
		addr, err := freeAddr()
		if err != nil {
			t.Fatalf("ociregistry: %v", err)
		}
		err = serve(t, bins[0], dir, addr, auth)
		if err == nil {
			reg := &Registry{host: addr}
			if err := reg.probe(opts); err != nil {
				t.Fatalf("ociregistry: %v", err)
			}
			return reg
		}
		if !errors.Is(err, daemon.ErrAddrInUse) || attempt == 3 {
			t.Fatalf("ociregistry: %v", err)
		}
	}
}

// serve starts the registry on addr and returns once its log says it
// listens, or with the reason it exited. It stops the registry at t's end.
func serve(t testing.TB, bin, dir, addr, htpasswd string) error {
	config := filepath.Join(dir, "config.yml")
	if err := os.WriteFile(config, []byte(configYAML(filepath.Join(dir, "storage"), addr, htpasswd)), 0o600); err != nil {
		return err
	}
	cmd := exec.Command(bin, "serve", config)
	// No tracing exporter: its default would send spans to localhost:4318.
	cmd.Env = append(os.Environ(), "OTEL_TRACES_EXPORTER=none")
	return daemon.Start(t, cmd, daemon.Ready{Line: "listening on", InUse: "address already in use", Timeout: startTimeout})
}

// probe asks `/v2/` once: the registry must answer, and with auth it must
// refuse anonymous requests and accept the credentials.
func (r *Registry) probe(opts Options) error {
	get := func(user, password string) (int, error) {
		req, err := http.NewRequest(http.MethodGet, "http://"+r.host+"/v2/", nil)
		if err != nil {
			return 0, err
		}
		if user != "" {
			req.SetBasicAuth(user, password)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, err
		}
		_ = resp.Body.Close()
		return resp.StatusCode, nil
	}
	code, err := get("", "")
	if err != nil {
		return fmt.Errorf("the registry on %s does not answer /v2/: %w", r.host, err)
	}
	want := http.StatusOK
	if opts.User != "" {
		want = http.StatusUnauthorized
	}
	if code != want {
		return fmt.Errorf("anonymous GET /v2/ on %s: status %d, want %d", r.host, code, want)
	}
	if opts.User == "" {
		return nil
	}
	if code, err = get(opts.User, opts.Password); err != nil || code != http.StatusOK {
		return fmt.Errorf("GET /v2/ on %s with the credentials: status %d, %w; want 200", r.host, code, err)
	}
	return nil
}

// configYAML is the registry's configuration: filesystem storage, deletes
// allowed (tests clean up), quiet logs except the start line, and htpasswd
// auth when a file is given.
func configYAML(storage, addr, htpasswd string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "version: 0.1\nlog: {level: info, accesslog: {disabled: true}}\n")
	fmt.Fprintf(&b, "storage: {filesystem: {rootdirectory: %q}, delete: {enabled: true}}\n", storage)
	fmt.Fprintf(&b, "http: {addr: %q}\n", addr)
	if htpasswd != "" {
		fmt.Fprintf(&b, "auth: {htpasswd: {realm: test-registry, path: %q}}\n", htpasswd)
	}
	return b.String()
}

// writeHtpasswd writes an htpasswd file with one bcrypt entry, the only hash
// the registry accepts.
func writeHtpasswd(dir, user, password string) (string, error) {
	if strings.ContainsAny(user, ":\n") {
		return "", fmt.Errorf("user %q: must not contain ':' or a line break", user)
	}
	hash, err := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost)
	if err != nil {
		return "", fmt.Errorf("hashing the password: %w", err)
	}
	path := filepath.Join(dir, "htpasswd")
	return path, os.WriteFile(path, []byte(user+":"+string(hash)+"\n"), 0o600)
}

// freeAddr returns a loopback address with a port that was free a moment ago.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	return addr, l.Close()
}
