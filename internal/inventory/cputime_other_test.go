//go:build !unix

package inventory

import "time"

// cpuTime is not measured here; the CPU bound is checked on unix systems.
func cpuTime() time.Duration { return 0 }
