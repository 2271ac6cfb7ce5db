// Package external hands deploy items to deployers that run in a cluster:
// controllers that watch Landscaper's DeployItem objects of their type,
// such as Landscaper's container and terraform deployers or a company's
// own. It plays Landscaper's side of the deployer contract for one item
// per call, as Landscaper v0.98's deployer library expects it.
//
// # Objects
//
// Every item gets a DeployItem, a Context and (when the item names a
// target) a Target, all in one configured namespace of one configured
// cluster and all with the same name: the item's name made a DNS label
// plus a hash of its ID (nameFor), so a later apply finds them without
// state. They carry the ownership labels of the built-in deployers (the
// deploy item hash, the item ID, the installation instance); an object of
// that name with another owner is refused, one a newer instance adopted
// is left to it. The DeployItem is written as Landscaper writes it from
// a template: spec.type, spec.target (the Target in the same namespace),
// spec.context, spec.config and spec.timeout ("none" for no limit), the
// spec replaced as a whole so that nothing someone else added survives;
// Landscaper's finalizer and the annotations a deployer reads from
// metadata alone to decide whether it is responsible (deployer-type,
// deployer-target-name) are added to what the metadata holds. The Target
// copies the item's target with its labels and annotations, since
// deployers select targets by them (fenced environments).
//
// # One job
//
// A job starts when this side writes a new status.jobID (a UUID) with
// status.jobIDGenerationTime and transitionTimes reset to the trigger.
// A deployer acts on an item only while jobID differs from
// status.jobIDFinished: it then writes phase Init (InitDelete when the
// item is being deleted), observedGeneration, lastReconcileTime, its
// identity and transitionTimes.initTime — its pickup — works, and ends
// the job by setting a final phase (Succeeded, Failed, DeleteFailed),
// lastError with its codes when it failed, providerStatus, exportRef (a
// Secret whose key "config" holds the exports; read only from the
// DeployItem's namespace and only when the DeployItem owns it) and
// jobIDFinished = jobID.
// This side follows the DeployItem with a watch (resumed when the server
// ends it). The call brings the item's timeouts (deployer.Timeouts,
// filled by the engine from deploy_item_timeouts and the item's timeout);
// since this deployer hands items off (deployer.HandsOff), it measures
// pickup and progressing itself and the engine does not bound the call
// by the item's timeout:
//
//   - Pickup: no initTime within the pickup timeout (Landscaper's
//     deployItemTimeouts.pickup, 5 minutes) ends the job from this side as
//     Landscaper's deploy item controller does: Failed, jobIDFinished,
//     lastError PickupTimeout with ERR_TIMEOUT — whatever the item's own
//     timeout, which has not started yet. Every status write of this side
//     carries the resourceVersion it read, so a deployer that picks the
//     job up at the same moment wins and is waited for.
//   - Progressing: the item's timeout, counted from the pickup, so a
//     deployer that picks the job up late still gets the whole window.
//     Waits outside a job (a deleted DeployItem that other finalizers
//     hold) are bounded by it too.
//   - Abort, when the progressing or pickup timeout passes here or the
//     call's context ends (interrupt, Terraform timeout): a deployer that
//     picked the job up is asked to stop with the operation annotation
//     "abort" and the abort-time annotation, and gets most of the abort
//     timeout to end the job itself (abortBudget). Then — at once if no
//     deployer picked the job up — this side ends it as Landscaper v0.98
//     ends an interrupted item: Failed (or DeleteFailed), jobIDFinished,
//     lastError. Deployers built on Landscaper's library check for that
//     phase and stop; their own final write then fails on the
//     resourceVersion and is dropped. (v0.98's deployers ignore the abort
//     annotation, which older contract versions defined; they only see
//     the second step.) After an interrupt the engine measures the abort
//     timeout and gives the call up at its end; the deadline arrives as
//     the context's cause (deployer.AbortDeadline), and this side plans
//     its two steps by it rather than by a clock of its own. The abort
//     timeout defaults to far less than Landscaper's five minutes
//     (api.DefaultAbortTimeout), so that a Ctrl-C returns promptly.
//
// A job that ends Succeeded returns the exports; one that ends Failed
// returns the deployer's lastError, terminal when its codes say a retry
// cannot help (failure.FromLandscaperCodes), else transient, so the engine
// retries with a new job as Landscaper's retries do. An abort and a pickup
// timeout are terminal. The provider status names the objects and copies
// what the DeployItem reports (phase, deployer, its providerStatus,
// exportRef); the DeployItem itself, which stays in the cluster, is what
// the deployer reads on the next job.
//
// # Deletion
//
// Delete deletes the DeployItem (the finalizer keeps it) and starts a
// job; the deployer uninstalls and removes the finalizer, and the item is
// gone; a job that ends DeleteFailed is the deployer's error. With
// delete-without-uninstall the item gets that annotation and this side
// removes the finalizer itself without a job, as Landscaper's execution
// controller does. An item no deployer ever reconciled (no
// lastReconcileTime, identity or providerStatus: nothing can have been
// deployed for it) is removed the same way, so a destroy after a pickup
// timeout does not wait for a deployer that is not there. The Target and
// Context are deleted after the DeployItem is gone; the export Secret,
// owned by the DeployItem, goes with it (garbage collection). An apply
// that finds its DeployItem being deleted (an interrupted destroy) first
// finishes that deletion through the deployer.
//
// # Migration
//
// Adopt (adopt.go) takes over the DeployItem Landscaper made for an item,
// with its UID and status and without a job: the provider status marks it
// Adopted, so it stays under Landscaper's name and namespace, and names
// Landscaper's Target and Context until the first Apply writes the item
// in place with its own and removes the Execution's labels and owner
// reference.
//
// # Drift
//
// Drift sees only this side: a DeployItem, Target or Context that is gone
// or changed, and a DeployItem whose last job did not succeed. What the
// deployer did in its target is not checked; the contract has no way to
// ask.
package external
