package main

import (
	"fmt"
	"log"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
)

// profileDirEnv names a directory into which every start of the provider
// writes a CPU profile and, when it exits, a heap profile (cpu-<pid>.pprof,
// heap-<pid>.pprof): Terraform starts the plugin several times per
// command, and a profile of the whole process is the only way to see what
// the framework, the engine and the deployers cost together
// (tools/bench/RESULTS.md). Unset, nothing is recorded.
const profileDirEnv = "TF_LANDSCAPER_PROFILE_DIR"

// startProfiles starts the CPU profile when profileDirEnv is set and
// returns what ends it. A profile that cannot be written is logged (to
// the plugin's stderr, which Terraform logs) and otherwise ignored: it
// must never stop the provider from serving.
func startProfiles() (stop func()) {
	dir := os.Getenv(profileDirEnv)
	if dir == "" {
		return func() {}
	}
	name := func(kind string) string { return filepath.Join(dir, fmt.Sprintf("%s-%d.pprof", kind, os.Getpid())) }
	cpu, err := os.Create(name("cpu"))
	if err != nil {
		log.Printf("%s: %v", profileDirEnv, err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		log.Printf("%s: %v", profileDirEnv, err)
		_ = cpu.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		_ = cpu.Close()
		heap, err := os.Create(name("heap"))
		if err != nil {
			log.Printf("%s: %v", profileDirEnv, err)
			return
		}
		defer func() { _ = heap.Close() }()
		runtime.GC() // the heap profile shows what is live, and allocations since start
		if err := pprof.WriteHeapProfile(heap); err != nil {
			log.Printf("%s: %v", profileDirEnv, err)
		}
	}
}
