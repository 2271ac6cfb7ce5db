package sandbox

import "syscall"

// limitAddressSpace makes a single huge allocation fail in the child; the
// watchdog sees memory only after it was mapped. Go maps more address
// space than it uses, so the cap leaves generous room above the limit.
func limitAddressSpace(maxMemory int64) {
	var cur syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &cur) != nil {
		return
	}
	limit := uint64(maxMemory)*2 + 4<<30
	if cur.Max != ^uint64(0) && limit > cur.Max {
		return
	}
	_ = syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: limit, Max: cur.Max})
}
