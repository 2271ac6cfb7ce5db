package startup

import (
	"os"
	"runtime/debug"
	"testing"
)

// The package's init paused the collector in this test binary too; Resume
// gives back the setting from before (GOGC's, 100 when unset), once.
func TestResume(t *testing.T) {
	if v := os.Getenv("GOGC"); v != "" {
		t.Skipf("GOGC=%s: the setting to restore is the environment's", v)
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("before Resume the collector runs with %d, want paused (-1)", got)
	}
	Resume()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("after Resume the collector runs with %d, want 100", got)
	}
	debug.SetGCPercent(-1)
	Resume() // a second call changes nothing
	if got := debug.SetGCPercent(100); got != -1 {
		t.Fatalf("a second Resume set %d, want no change (-1)", got)
	}
}
