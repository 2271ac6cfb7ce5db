//go:build race

package inventory

// raceEnabled: the race detector multiplies CPU time and memory, so the
// hostile bounds are not asserted under it.
const raceEnabled = true
