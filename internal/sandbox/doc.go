// Package sandbox runs work that untrusted input controls — a blueprint's
// Spiff templates and data mappings, its Helm charts — in a child
// process: the provider's own executable, started with a marker argument
// and nothing of the provider's environment, bounded in wall time, memory,
// stack and output size, and killed when it exceeds a limit or its caller
// gives up. Go cannot stop a goroutine: work abandoned in-process keeps its
// CPU and memory until it ends, if ever; a killed child ends at once, and
// only the child dies.
//
// A package offers a kind of job with Serve, called from one of its init
// functions (so the child does the job before main runs: the provider's
// main and a test binary's alike need no code for it), and runs one with
// Run. The child may ask the parent questions (Call) — what needs the
// parent's clients or credentials, which the child never holds.
package sandbox
