package manifest

import (
	"strings"
	"testing"
)

// TestRecordedVersion_Bounded: a resourceVersion is cluster data; one
// longer than any etcd writes is not recorded, so a hostile server cannot
// grow the state through it (its object is then read whole).
func TestRecordedVersion_Bounded(t *testing.T) {
	for rv, want := range map[string]string{
		"":                         "",
		"18446744073709551615":     "18446744073709551615",
		strings.Repeat("9", 64):    strings.Repeat("9", 64),
		strings.Repeat("9", 65):    "",
		strings.Repeat("x", 1<<20): "",
	} {
		if got := recordedVersion(rv); got != want {
			t.Errorf("recordedVersion(%d bytes) = %d bytes, want %d", len(rv), len(got), len(want))
		}
	}
}
