package provider

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
)

// cliWorkspace runs the real Terraform or OpenTofu CLI as a process, with
// the provider built as a binary and installed through dev_overrides. The
// plugin-testing harness runs the provider in-process, so it cannot test
// what happens when the CLI itself is interrupted or killed; this can.
type cliWorkspace struct {
	t   *testing.T
	dir string
	cli string
	env []string
}

// providerBinary builds the provider once per test binary.
var providerBinary = sync.OnceValues(func() (string, error) {
	root, err := checkout.Root()
	if err != nil {
		return "", err
	}
	dir, err := os.MkdirTemp("", "landscaper-provider-")
	if err != nil {
		return "", err
	}
	out, err := exec.Command("go", "build", "-C", root, "-o", filepath.Join(dir, "terraform-provider-landscaper"), ".").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("building the provider: %w\n%s", err, out)
	}
	return dir, nil
})

func newCLIWorkspace(t *testing.T, config string) *cliWorkspace {
	t.Helper()
	// Every test that drives the CLI itself is an acceptance test, also
	// one that forgets to say so (LANDSCAPER_TEST_ENV=1 alone runs the
	// cluster tests, without a CLI).
	requireAcc(t)
	cli := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if cli == "" {
		t.Fatal("TF_ACC_TERRAFORM_PATH is not set: run through TestMain (tfcli.Setup)")
	}
	providerDir, err := providerBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rc := filepath.Join(dir, "cli.tfrc")
	overrides := fmt.Sprintf(`provider_installation {
  dev_overrides {
    "registry.terraform.io/landscaper-terraform/landscaper" = %[1]q
    "registry.opentofu.org/landscaper-terraform/landscaper" = %[1]q
  }
  direct {}
}
`, providerDir)
	if err := os.WriteFile(rc, []byte(overrides), 0o600); err != nil {
		t.Fatal(err)
	}
	w := &cliWorkspace{t: t, dir: dir, cli: cli,
		env: append(os.Environ(), "TF_CLI_CONFIG_FILE="+rc, "TF_IN_AUTOMATION=1", "CHECKPOINT_DISABLE=1")}
	w.write(config)
	return w
}

func (w *cliWorkspace) write(config string) {
	w.t.Helper()
	main := `terraform {
  required_providers {
    landscaper = { source = "landscaper-terraform/landscaper" }
  }
}
` + config
	if err := os.WriteFile(filepath.Join(w.dir, "main.tf"), []byte(main), 0o600); err != nil {
		w.t.Fatal(err)
	}
}

func (w *cliWorkspace) command(ctx context.Context, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, w.cli, append(args, "-no-color")...)
	cmd.Dir, cmd.Env = w.dir, w.env
	return cmd
}

// run runs the CLI to completion and returns its combined output.
func (w *cliWorkspace) run(args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := w.command(ctx, args...).CombinedOutput()
	return string(out), err
}

// mustRun fails the test unless the CLI succeeds.
func (w *cliWorkspace) mustRun(args ...string) string {
	w.t.Helper()
	out, err := w.run(args...)
	if err != nil {
		w.t.Fatalf("%s %v: %v\n%s", filepath.Base(w.cli), args, err, out)
	}
	return out
}

// start runs the CLI in the background; wait returns its output and error.
func (w *cliWorkspace) start(args ...string) (cmd *exec.Cmd, wait func() (string, error)) {
	w.t.Helper()
	var buf bytes.Buffer
	cmd = w.command(context.Background(), args...)
	cmd.Stdout, cmd.Stderr = &buf, &buf
	// Its own process group, so a test can kill the CLI with its provider.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.t.Fatal(err)
	}
	return cmd, func() (string, error) {
		err := cmd.Wait()
		return buf.String(), err
	}
}

// interrupt sends Ctrl-C to the CLI cmd that start ran and waits for it;
// the test fails unless the command fails. It returns the output and when
// the signal was sent.
func (w *cliWorkspace) interrupt(cmd *exec.Cmd, wait func() (string, error)) (string, time.Time) {
	w.t.Helper()
	sent := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		w.t.Fatal(err)
	}
	out, err := wait()
	if err == nil {
		w.t.Fatalf("interrupted %s succeeded:\n%s", cmd.Args[1], out)
	}
	w.t.Logf("interrupted %s stopped after %s", cmd.Args[1], time.Since(sent))
	return out, sent
}
