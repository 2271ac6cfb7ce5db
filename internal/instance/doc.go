// Package instance runs the jobs of one installation instance — one
// landscaper_installation resource instance, from its create to its
// destroy — without knowing Terraform: package provider turns the
// configuration into an engine.RootSpec and the outcome into state, and
// everything in between happens here.
//
//   - Runner.Apply: an install job through the installation's inventory
//     (package inventory wraps every deployer call, so the call carries
//     the owning instance and its provider status is recorded in the
//     target cluster); after a lost state it starts from what the
//     inventory records and settles what the job no longer renders.
//   - Runner.Delete: the delete job, recorded the same way; Runner.Recorded
//     rebuilds what a tainted instance deployed from its inventory.
//   - Runner.Drift: refresh's drift check, and the snapshot it marks.
//   - Runner.Adopt: the adoption job of a migration from a running
//     Landscaper (every deployer's Adopt instead of Apply).
//   - Decode: the snapshot in private state, decoded once per plan (the
//     refresh's decoding is kept for the plan that follows).
//
// Errors are plain errors and may hold secrets: the caller masks them
// where they leave the process (a diagnostic).
package instance
