package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// upTimeout is longer than the cluster's own start timeout so that the
// cluster's error, not ours, explains a slow start.
const upTimeout = 3 * time.Minute

// up starts the cluster in the background unless one already answers.
func up(ctx context.Context, root string, port int) error {
	dir := localcluster.StateDir(root)
	kubeconfig := localcluster.BackgroundKubeconfigPath(root)
	if _, err := localcluster.Probe(ctx, kubeconfig); err == nil {
		fmt.Printf("local cluster already running; export KUBECONFIG=%s\n", kubeconfig)
		return nil
	}
	// A supervisor that does not answer is stuck or half started: replace it.
	if msg, err := stop(root); err != nil {
		return err
	} else if msg != notRunning {
		fmt.Println("replacing a local cluster that does not answer:", msg)
	}
	if _, err := checkout.Tools(root, localcluster.Binaries...); err != nil {
		return err
	}
	if err := localcluster.PortFree(port); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	child, exited, err := startSupervisor(root, port)
	if err != nil {
		return err
	}

	started := time.Now()
	for time.Since(started) < upTimeout {
		select {
		case <-exited:
			_ = os.Remove(localcluster.PIDFilePath(root))
			return fmt.Errorf("the local cluster did not start, see %s", supervisorLog(root))
		case <-time.After(300 * time.Millisecond):
		}
		if _, err := localcluster.Probe(ctx, kubeconfig); err == nil {
			fmt.Printf("local cluster up in %s (logs in %s); export KUBECONFIG=%s\n",
				time.Since(started).Round(100*time.Millisecond), dir, kubeconfig)
			return nil
		}
	}
	_ = child.Signal(syscall.SIGTERM)
	return fmt.Errorf("the local cluster was not ready after %s, see the logs in %s", upTimeout, dir)
}

func supervisorLog(root string) string {
	return filepath.Join(localcluster.StateDir(root), "localcluster.log")
}

// startSupervisor runs `localcluster serve` in its own session so that it
// outlives make, and records its pid for `down`.
func startSupervisor(root string, port int) (*os.Process, <-chan struct{}, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("finding this program to start it in the background: %w", err)
	}
	log, err := os.Create(supervisorLog(root))
	if err != nil {
		return nil, nil, err
	}
	defer log.Close()
	cmd := exec.Command(exe, serveCommand)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "LOCALCLUSTER_PORT="+strconv.Itoa(port))
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("starting the local cluster in the background: %w", err)
	}
	if err := os.WriteFile(localcluster.PIDFilePath(root), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o644); err != nil {
		_ = cmd.Process.Kill()
		return nil, nil, fmt.Errorf("recording the pid of the local cluster: %w", err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	return cmd.Process, exited, nil
}
