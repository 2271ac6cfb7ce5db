package main

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// stopTimeout covers the graceful stop of five processes; after it, force.
const stopTimeout = 60 * time.Second

// down stops the background cluster recorded in the pid file, if any.
func down(root string) error {
	msg, err := stop(root)
	if err != nil {
		return err
	}
	fmt.Println(msg)
	return nil
}

const notRunning = "local cluster is not running"

// stop ends the supervisor and everything it started, and says what it did.
func stop(root string) (string, error) {
	pidFile := localcluster.PIDFilePath(root)
	cleanup := func() {
		_ = os.Remove(localcluster.BackgroundKubeconfigPath(root))
		_ = os.Remove(pidFile)
	}
	data, err := os.ReadFile(pidFile)
	if errors.Is(err, os.ErrNotExist) {
		cleanup()
		return notRunning, nil
	}
	if err != nil {
		return "", err
	}
	pid, ok := supervisorPID(data)
	if !ok {
		cleanup()
		return notRunning + " (removed a stale pid file)", nil
	}

	// Remember the whole tree now: once the supervisor is gone its children
	// are re-parented and could no longer be found.
	tree := append(descendants(pid), pid)
	if err := syscall.Kill(pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		return "", fmt.Errorf("stopping the local cluster (pid %d): %w", pid, err)
	}
	deadline := time.Now().Add(stopTimeout)
	for alive(pid) && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
	}
	forced := false
	for _, p := range tree {
		if alive(p) {
			_ = syscall.Kill(p, syscall.SIGKILL)
			forced = true
		}
	}
	cleanup()
	if forced {
		return fmt.Sprintf("local cluster did not stop within %s and was killed", stopTimeout), nil
	}
	return "local cluster stopped", nil
}

// supervisorPID reads a pid file; a garbled one is as stale as one naming a
// process that ended.
func supervisorPID(data []byte) (int, bool) {
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid, err == nil && isSupervisor(pid)
}

// isSupervisor guards against a pid that was reused by an unrelated process.
func isSupervisor(pid int) bool {
	if !alive(pid) {
		return false
	}
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	args := strings.Split(strings.TrimRight(string(cmdline), "\x00"), "\x00")
	return len(args) == 2 && strings.HasSuffix(args[0], "localcluster") && args[1] == serveCommand
}
