//go:build !linux

package template

// limitAddressSpace: outside Linux the memory watchdog alone bounds the child.
func limitAddressSpace(int64) {}
