// Package daemon starts a server a test needs (a registry, a database)
// and waits for the line of its log that says it is ready, so tests
// neither poll nor sleep.
package daemon

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// ErrAddrInUse is returned when the server exited saying its address was
// taken: the caller picks another port and starts it again.
var ErrAddrInUse = errors.New("address already in use")

// Ready says how Start knows the server is up.
type Ready struct {
	Line    string        // a log line containing it means ready
	InUse   string        // a log containing it means the address was taken (case-insensitive)
	Timeout time.Duration // how long to wait for Line
	// Stop ends the server at the test's end (e.g. a signal for a clean
	// shutdown); nil kills it.
	Stop func(*os.Process) error
}

// Start runs cmd with its output piped and returns once a line of it
// contains r.Line, or with the reason it exited or was not ready in time
// (the start of its log included). It stops the server at t's end.
func Start(t testing.TB, cmd *exec.Cmd, r Ready) error {
	name := filepath.Base(cmd.Path)
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("starting %s: %w", cmd.Path, err)
	}
	exited := make(chan error, 1)
	go func() { err := cmd.Wait(); _ = pw.CloseWithError(io.EOF); exited <- err }()

	// The log is read to its end so the server never blocks on a full
	// pipe; its start is kept for a failure message.
	ready := make(chan struct{})
	logged := make(chan string, 1)
	go func() {
		notify := ready
		var seen strings.Builder
		lines := bufio.NewScanner(pr)
		for lines.Scan() {
			line := lines.Text()
			if seen.Len() < 64<<10 {
				seen.WriteString(line + "\n")
			}
			if notify != nil && strings.Contains(line, r.Line) {
				close(notify)
				notify = nil
			}
		}
		logged <- seen.String()
	}()

	timer := time.NewTimer(r.Timeout)
	defer timer.Stop()
	select {
	case <-ready:
		stop := r.Stop
		if stop == nil {
			stop = (*os.Process).Kill
		}
		t.Cleanup(func() { _ = stop(cmd.Process); <-exited })
		return nil
	case err := <-exited:
		log := <-logged
		if r.InUse != "" && strings.Contains(strings.ToLower(log), strings.ToLower(r.InUse)) {
			return ErrAddrInUse
		}
		return fmt.Errorf("%s exited before its log said %q (%w):\n%s", name, r.Line, err, log)
	case <-timer.C:
		_ = cmd.Process.Kill()
		<-exited
		return fmt.Errorf("%s did not log %q within %s:\n%s", name, r.Line, r.Timeout, <-logged)
	}
}
