//go:build !linux

package sandbox

// limitAddressSpace: outside Linux the memory watchdog alone bounds the child.
func limitAddressSpace(int64) {}
