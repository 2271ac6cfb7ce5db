//go:build unix

package helm_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process used so far; unlike wall time it
// does not grow when the machine is busy with other work.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
