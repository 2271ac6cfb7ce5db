// Package testgate decides whether a test that needs the test environment
// built by `make tools` (the local cluster, a Terraform/OpenTofu CLI, the OCI
// registry) runs. `go test ./...` on a machine with Go alone runs every unit
// test and skips these with a reason; `make test` sets Env, and then a missing
// tool or cluster fails the test instead: CI never passes by skipping.
package testgate

import (
	"os"
	"testing"
)

// Env names the variable that `make test` sets to require the test environment.
const Env = "LANDSCAPER_TEST_ENV"

// accEnv is terraform-plugin-testing's switch for acceptance tests; asking
// for them asks for the cluster and the CLI they run against.
const accEnv = "TF_ACC"

// On reports whether the test environment is required: Env or TF_ACC is set.
func On() bool {
	return os.Getenv(Env) != "" || os.Getenv(accEnv) != ""
}

// Require skips t unless the test environment is required, naming what the
// test needs. Call it before looking for that: once the gate is on, the test
// must fail when the thing is missing.
func Require(t testing.TB, what string) {
	t.Helper()
	if !On() {
		t.Skipf("needs %s: runs with %s=1 (set by make test; run make tools first)", what, Env)
	}
}
