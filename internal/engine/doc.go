// Package engine runs Landscaper's reconcile semantics (ARCHITECTURE.md,
// "Landscaper semantics") synchronously, in-process, for one root
// installation at a time. It has
// no Terraform types: the provider calls it and stores the returned
// Snapshot (package snapshot) in Terraform private state.
//
// # API
//
//	e := &engine.Engine{Deployers: registry, Parallelism: 10, Log: logger}
//	tree, err := e.Render(ctx, spec, prev)               // terraform plan: no cluster; deployers check configs
//	snap, err := e.Apply(ctx, spec, prev)             // create / update: one install job
//	drifted, err := e.Drift(ctx, snap, bp, comp)      // read: one Drift call per deploy item
//	snap, err = e.Delete(ctx, snap, engine.DeleteOptions{WithoutUninstall: false})
//	b, _ := snapshot.Marshal(snap); snap, _ = snapshot.Unmarshal(b)
//
// Apply always returns a non-nil snapshot that records what exists — also
// on error, interrupt or timeout — so the caller stores it in every case.
// Delete returns an empty snapshot (Empty() == true) when everything is
// gone, else what remains with the root in DeleteFailed.
//
// # Semantics
//
// Jobs and job IDs, the installation and execution flows, the classes A–E
// that order deploy items, transient and terminal errors, interrupts,
// timeouts and the delete order are described once, in ARCHITECTURE.md
// ("Landscaper semantics"). Jobs of one root must not run concurrently:
// the caller (Terraform, one operation per resource) serialises them.
// Render-time errors (duplicate names, unknown dependsOn, cycles named as
// "a -> b -> c -> a", sibling cycles) are found by Render, and by Apply
// over the whole tree before anything is deployed.
//
// # Logging
//
// Log receives phase transitions and deploy item starts and finishes with
// object paths, phases and job IDs; never configs, imports or targets.
// Snapshots contain resolved targets (needed to delete without
// configuration): treat them as sensitive.
package engine
