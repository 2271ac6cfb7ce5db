package main

import (
	"os"
	"os/exec"
	"slices"
	"testing"
)

// TestDescendants_FindsChildren proves that `down` can find the processes a supervisor started.
func TestDescendants_FindsChildren(t *testing.T) {
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
	if got := descendants(os.Getpid()); !slices.Contains(got, child.Process.Pid) {
		t.Errorf("descendants(self) = %v, want it to contain child %d", got, child.Process.Pid)
	}
	if !alive(child.Process.Pid) {
		t.Errorf("alive(running child) = false")
	}
}

// TestAlive_ExitedProcess proves that a process that ended is not taken for a running cluster.
func TestAlive_ExitedProcess(t *testing.T) {
	child := exec.Command("true")
	if err := child.Run(); err != nil {
		t.Fatal(err)
	}
	if alive(child.Process.Pid) {
		t.Errorf("alive(%d) after it exited = true", child.Process.Pid)
	}
}

// TestIsSupervisor_OtherProcess proves that a reused pid of another program is never stopped.
func TestIsSupervisor_OtherProcess(t *testing.T) {
	if isSupervisor(os.Getpid()) {
		t.Errorf("isSupervisor(test binary) = true")
	}
}
