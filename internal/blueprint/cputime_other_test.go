//go:build !unix

package blueprint

import "time"

// cpuTime is not measured here; the hostile suite's CPU bound is checked
// on unix systems.
func cpuTime() time.Duration { return 0 }
