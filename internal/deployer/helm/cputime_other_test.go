//go:build !unix

package helm_test

import "time"

// cpuTime is not measured here: the tests that need it skip.
func cpuTime() time.Duration { return 0 }
