package daemon

import (
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestStart(t *testing.T) {
	sh := func(script string) *exec.Cmd { return exec.Command("/bin/sh", "-c", script) }
	ready := Ready{Line: "accepting connections", InUse: "address already in use", Timeout: 5 * time.Second}
	if err := Start(t, sh("echo starting; echo accepting connections; exec sleep 60"), ready); err != nil {
		t.Errorf("a server that logs ready: %v", err)
	}
	if err := Start(t, sh("echo 'bind: Address already in use'; exit 1"), ready); !errors.Is(err, ErrAddrInUse) {
		t.Errorf("a taken address: %v", err)
	}
	if err := Start(t, sh("echo broken config; exit 2"), ready); err == nil || !strings.Contains(err.Error(), "broken config") {
		t.Errorf("an exit says why, with the log: %v", err)
	}
	ready.Timeout = 100 * time.Millisecond
	if err := Start(t, sh("echo slow; exec sleep 60"), ready); err == nil || !strings.Contains(err.Error(), "did not log") {
		t.Errorf("a server that never logs ready: %v", err)
	}
}
