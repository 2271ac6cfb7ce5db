// Package startup pauses the garbage collector while the binary's
// packages initialise, and resumes it when the provider starts serving
// or a sandbox child starts its job.
//
// Terraform starts the provider several times per command, and every
// Helm or Spiff render starts the binary once more as a sandbox child.
// Each start runs the init functions of every linked package: Helm's
// import graph alone brings JSON Schema metaschema compilers, client-go's
// and kubectl's schemes, govalidator's and semver's regexps. Those inits
// allocate about 8 MB, of which about 3 MB stay live, and with the
// collector's default 4 MB first goal that is three collections before
// main runs — on a loaded machine the larger part of the init time
// (tools/bench/RESULTS.md, "A smaller floor"). Paused, the garbage of the
// inits is collected once, after main resumed the collector.
//
// Go initialises packages in import-path order among those whose imports
// are ready, so this package, importing only runtime/debug, runs before
// the heavy packages (k8s.io, helm.sh, sigs.k8s.io, oras.land and
// github.com/santhosh-tekuri sort after it). Package main resumes the
// collector before it serves; package sandbox before a child's job, which
// runs from an init function, before main.
package startup

import (
	"runtime/debug"
	"sync"
)

// percent is the collector's setting before the pause: GOGC's value, or
// 100. The pause changes nothing else (GOMEMLIMIT, when set, still
// bounds the heap while paused).
var percent = debug.SetGCPercent(-1)

// Resume ends the pause; calls after the first do nothing.
var Resume = sync.OnceFunc(func() { debug.SetGCPercent(percent) })
