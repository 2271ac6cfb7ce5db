package helm_test

import (
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/registry"
)

// pushToRegistry starts Debian's docker-registry on a loopback port for
// this test, pushes the chart archive to it and returns its reference in
// Landscaper's form (no scheme).
func pushToRegistry(t *testing.T, tgz []byte) string {
	t.Helper()
	bin, err := exec.LookPath("docker-registry")
	if err != nil {
		t.Fatal("docker-registry is not installed (apt-get install docker-registry): the OCI chart source cannot be tested")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	dir := t.TempDir()
	config := fmt.Sprintf("version: 0.1\nlog: {level: error}\nstorage: {filesystem: {rootdirectory: %s}}\nhttp: {addr: %q}\n", filepath.Join(dir, "data"), addr)
	configPath := filepath.Join(dir, "config.yml")
	if err := os.WriteFile(configPath, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "serve", configPath)
	cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			_ = c.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("docker-registry did not listen on %s: %v", addr, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	client, err := registry.NewClient(registry.ClientOptPlainHTTP(), registry.ClientOptWriter(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	ref := addr + "/charts/conformance:0.1.0"
	if _, err := client.Push(tgz, ref); err != nil {
		t.Fatalf("pushing the chart to %s: %v", ref, err)
	}
	return ref
}
