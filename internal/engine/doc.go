// Package engine runs Landscaper's reconcile semantics (seeds 000–004)
// synchronously, in-process, for one root installation at a time. It has
// no Terraform types: the provider calls it and stores the returned
// Snapshot (package snapshot) in Terraform private state.
//
// # API
//
//	e := &engine.Engine{Deployers: registry, Parallelism: 10, Log: logger}
//	tree, err := engine.Render(spec, prev)            // terraform plan: pure, no cluster
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
// # Jobs
//
// Apply starts a job with a new UUID. Every object (installation,
// subinstallation, execution, deploy item) records jobID and
// jobIDFinished; receiving the job ID is its trigger, it is finished when
// both are equal, and a parent finishes only after its children. Every
// job reconciles every object of the tree (deploy items with
// updateOnChangeOnly skip their deployer while their config is unchanged).
//
// Jobs of one root must not run concurrently: the caller (Terraform, one
// operation per resource) serialises them. Within a synchronous job the
// spec cannot change, so Completing has no imports-changed check.
//
// Interrupted jobs are restarted, not resumed. Cancelling ctx is the
// interrupt: nothing new is triggered, running deployer calls get
// Engine.Grace in all (half to finish, then they are cancelled and have
// the rest to return) and are Failed with lastError reason
// "Interrupted", and every object of the tree still
// finishes with the job, so the returned snapshot is a finished job that
// records every provider status a deployer reported. The next Apply simply
// starts a new job from it; deployers are idempotent, so re-applying what
// succeeded changes nothing. (A snapshot whose root job is unfinished can
// only come from elsewhere; Apply treats it the same way.)
//
// # Flows
//
// Installation (package installation): Init (wait for predecessors and
// require they succeeded, resolve imports from the parent's scope, apply
// importDataMappings, store the imports hash, render the blueprint,
// validate deploy items and the sibling data-flow graph, delete orphaned
// subinstallations) → ObjectsCreated (start subinstallations and the
// execution) → Progressing (wait for them) → Completing (fail if the
// imports changed; export executions, then exportDataMappings; publish
// exports to the parent's scope) → Succeeded | Failed. Delete: InitDelete
// (wait while siblings importing our exports exist) → TriggerDelete →
// Deleting → gone | DeleteFailed (only after every child finished).
//
// Execution (package execution): Init (validate, delete orphaned items —
// gone from the spec or of a changed type — in
// reverse DAG order, create/update items) → Progressing (classes A–E of
// seed 002, package dag: trigger every item whose predecessors finished,
// concurrently up to Parallelism; after a failure trigger nothing new and
// fail once the running ones finished; stuck guard) → Completing →
// Succeeded | Failed. Delete: InitDelete → Deleting (an item only when no
// existing item depends on it) → gone | DeleteFailed.
//
// Render-time errors (duplicate names, unknown dependsOn, cycles named as
// "a -> b -> c -> a", sibling cycles) are checked by Render over the whole
// tree before Apply deploys anything.
//
// # Errors and time
//
// Package failure classifies: transient errors repeat the current phase
// (or deployer call) with exponential backoff and jitter (Engine.Backoff,
// capped, MaxRetries); terminal errors end the flow as Failed or
// DeleteFailed at once. Errors name the object and phase
// ("installation root/db: phase Progressing: … deploy item root/db/x
// failed: …"). Each deploy item's timeout (default 10m, "none" = no limit)
// bounds its deployer call and retries; past it the item is Failed with
// reason ProgressingTimeout. A deployer that does not return once its
// call is cancelled is given up (reason AbortTimeout) Engine.Grace after
// its timeout, or when the Grace after an interrupt is over. The whole job is bounded by ctx.
//
// # Logging
//
// Log receives phase transitions and deploy item starts and finishes with
// object paths, phases and job IDs; never configs, imports or targets.
// Snapshots contain resolved targets (needed to delete without
// configuration): treat them as sensitive.
package engine
