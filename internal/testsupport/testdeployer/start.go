package testdeployer

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/daemon"
)

// Type is the deploy item type the test deployer handles by default.
const Type = "landscaper-terraform.io/test"

// Build compiles the test deployer, once per test binary, and returns
// the binary's path.
func Build(t testing.TB) string {
	t.Helper()
	bin, err := build()
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

var build = sync.OnceValues(func() (string, error) {
	root, err := checkout.Root()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "testdeployer-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "testdeployer")
	cmd := exec.Command("go", "build", "-o", bin, "./internal/testsupport/testdeployer/cmd/testdeployer")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("building the test deployer: %w\n%s", err, out)
	}
	return bin, nil
})

// Start runs the test deployer bin against the cluster of kubeconfigPath
// for the DeployItems in namespace, with extra flags (-type, -never,
// -ignore-abort …), and stops it at t's end.
func Start(t testing.TB, bin, kubeconfigPath, namespace string, flags ...string) {
	t.Helper()
	logPath := filepath.Join(t.TempDir(), "testdeployer.log")
	t.Cleanup(func() { // runs after the deployer stopped
		if log, err := os.ReadFile(logPath); err == nil && t.Failed() {
			t.Logf("test deployer log:\n%s", log)
		}
	})
	args := append([]string{"-kubeconfig", kubeconfigPath, "-namespace", namespace, "-log", logPath}, flags...)
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = dieWithParent()
	err := daemon.Start(t, cmd, daemon.Ready{Line: "ready", Timeout: time.Minute,
		Stop: func(p *os.Process) error { return p.Signal(os.Interrupt) }})
	if err != nil {
		t.Fatal(err)
	}
}
