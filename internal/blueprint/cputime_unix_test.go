//go:build unix

package blueprint

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time this process and its waited-for children (the
// Spiff sandbox) used so far; unlike wall time it does not grow when the
// machine is busy with other work.
func cpuTime() time.Duration {
	var total time.Duration
	for _, who := range []int{syscall.RUSAGE_SELF, syscall.RUSAGE_CHILDREN} {
		var ru syscall.Rusage
		if syscall.Getrusage(who, &ru) == nil {
			total += time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
		}
	}
	return total
}
