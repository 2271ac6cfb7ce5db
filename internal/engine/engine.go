package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/installation"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/job"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/phase"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// Snapshot is the object tree after a job; see package snapshot.
type Snapshot = snapshot.Snapshot

// Logger receives phase transitions and deploy item starts and finishes.
type Logger = job.Logger

// Backoff paces the retries after transient errors.
type Backoff = phase.Backoff

// DefaultParallelism is the parallelism of an Engine that sets none.
const DefaultParallelism = 10

// Engine runs jobs on root installations. Set the fields once; an Engine
// may then run jobs of different roots concurrently.
type Engine struct {
	// Deployers finds the deployer of each deploy item type.
	Deployers *deployer.Registry
	// Parallelism bounds the deployer calls running at once in one job
	// (default DefaultParallelism).
	Parallelism int
	// Log receives progress; nil discards it.
	Log Logger
	// Backoff paces retries and caps them (zero: phase.DefaultBackoff,
	// phase.DefaultMaxRetries retries).
	Backoff Backoff
	// AbortTimeout is the deployer contract's abort timeout: how long a
	// deployer call may take to return once it was told to stop (the
	// caller's context ended, or its item's timeout); then it is given
	// up (default api.DefaultAbortTimeout).
	AbortTimeout time.Duration
	// DefaultTimeout bounds the deployer calls of items whose template
	// sets no timeout (default api.DefaultDeployItemTimeout).
	DefaultTimeout time.Duration
	// PickupTimeout is the deployer contract's pickup timeout: how long a
	// deployer that hands items to another process (deployer.HandsOff)
	// waits for it to pick a job up (default api.DefaultPickupTimeout,
	// negative: none). Those deployers measure it; the engine only hands
	// it on (deployer.Timeouts).
	PickupTimeout time.Duration
	// Clusters lets export executions reach target clusters
	// (getServiceAccountKubeconfig); nil makes that an error.
	Clusters template.ClusterAccess
}

// RootSpec is a root installation as the caller configures it.
type RootSpec struct {
	// Name is the root's path and prefixes every deploy item ID
	// ("<name>/<sub>/<item>"); keep it unique per target cluster.
	Name      string
	Blueprint *blueprint.Blueprint
	Component *blueprint.Component
	// Imports are the root's data and target imports by import name.
	Imports            blueprint.Imports
	ImportDataMappings map[string]json.RawMessage
	ExportDataMappings map[string]json.RawMessage
	// Context is the content of the root's Landscaper Context (its fields
	// besides apiVersion, kind and metadata), which every deploy item of
	// the tree gets (deployer.Item.Context); nil: none.
	Context map[string]any
	// StandIns, for Render only, give the exports of subinstallations by
	// path instead of rendering them (installation.RenderTreeWith); Apply
	// refuses a spec with any.
	StandIns map[string]StandIn
	// WriteOnly are the forms of the root's write-only imports
	// (imports.data_wo): every stored hash of the tree — imports hashes,
	// deploy item config hashes, deployers' status hashes — is their
	// fingerprint with these replaced (package fingerprint), and items
	// holding one are compared by no hash. nil: none.
	WriteOnly fingerprint.Forms
}

// StandIn is the exports standing in for one subinstallation in Render.
type StandIn = installation.StandIn

// DeleteOptions modify Delete; they travel unchanged to every deployer.
type DeleteOptions = deployer.DeleteOptions

// Apply runs one install job of the root installation, starting from prev
// (nil for a new installation), until every object reached a final phase.
// The returned snapshot is never nil and records what exists, also when
// the error is non-nil, ctx ended (interrupt) or a timeout hit.
func (e *Engine) Apply(ctx context.Context, spec RootSpec, prev *Snapshot) (*Snapshot, error) {
	res, err := e.ApplyJob(ctx, spec, prev)
	return res.Snapshot, err
}

// Applied is what one install job leaves.
type Applied struct {
	// Snapshot is Apply's: never nil.
	Snapshot *Snapshot
	// Replayable says the job rendered its whole tree before deploying
	// and rendering it again from the same inputs gives the same deploy
	// items, with no warning (RenderedTree.Replayable, and no deploy
	// item warned): a plan whose inputs are this job's may reuse its
	// rendering instead of rendering again.
	Replayable bool
}

// ApplyJob is Apply, saying also whether the job's rendering may be
// reused (Applied.Replayable).
func (e *Engine) ApplyJob(ctx context.Context, spec RootSpec, prev *Snapshot) (Applied, error) {
	prevRoot := rootOf(prev)
	j := e.newJob(ctx, jobRefs(spec, prevRoot))
	j.LandscaperContext = spec.Context
	if err := validateSpec(spec); err != nil {
		return Applied{Snapshot: failedJob(j, spec.Name, prevRoot, err)}, err
	}
	if len(spec.StandIns) > 0 {
		err := failure.NewTerminal("InvalidInstallation", errors.New("stand-in exports of subinstallations are for rendering only"))
		return Applied{Snapshot: failedJob(j, spec.Name, prevRoot, err)}, err
	}
	if prevRoot != nil && !snapshot.Finished(prevRoot.JobID, prevRoot.JobIDFinished) {
		// Decision (doc.go): an unfinished job is not resumed; this job
		// starts from what it recorded and re-applies everything.
		j.Log.Info("previous job unfinished; starting a new job", "installation", spec.Name, "previousJobID", prevRoot.JobID)
	}
	// Render the whole tree before anything is deployed, so a render-time
	// error anywhere fails the job before the first deployer call; the job
	// then reuses these renderings instead of rendering again.
	tree, err := renderTree(ctx, spec, prevRoot)
	if err == nil {
		err = e.checkItems(tree, j.ProviderRefs)
	}
	if err != nil {
		err = fmt.Errorf("installation %s: phase Init: %w", spec.Name, err)
		return Applied{Snapshot: failedJob(j, spec.Name, prevRoot, err)}, err
	}
	j.Log.Info("job started", "installation", spec.Name, "jobID", j.ID)
	replayable := tree.Replayable() && len(e.itemWarnings(tree.Items)) == 0
	root, err := installation.Run(j, tree.Root(), prevRoot)
	j.Log.Info("job finished", "installation", spec.Name, "jobID", j.ID, "phase", string(root.Phase))
	return Applied{Snapshot: &Snapshot{Version: snapshot.Version, Root: root}, Replayable: replayable}, err
}

// Delete runs the delete flow on everything prev records. It returns an
// empty snapshot when everything is gone, else what remains, with the
// root in DeleteFailed.
func (e *Engine) Delete(ctx context.Context, prev *Snapshot, opts DeleteOptions) (*Snapshot, error) {
	if prev.Empty() {
		return &Snapshot{Version: snapshot.Version}, nil
	}
	// A destroy reads every object of the installation: one list of a
	// kind answers for all deploy items (deployer.Item.SharedReads).
	j := e.newJob(ctx, snapshot.RootProviderRefs(prev.Root.Targets))
	j.SharedReads = deployer.NewSharedReads()
	j.Log.Info("delete job started", "installation", prev.Root.Path, "jobID", j.ID, "withoutUninstall", opts.WithoutUninstall)
	root, err := installation.Delete(j, prev.Root, opts, nil)
	j.Log.Info("delete job finished", "installation", prev.Root.Path, "jobID", j.ID, "gone", root == nil)
	return &Snapshot{Version: snapshot.Version, Root: root}, err
}

// renderTree is installation.RenderTree with a panic in a template or a
// mapping turned into an error.
func renderTree(ctx context.Context, spec RootSpec, prevRoot *snapshot.Installation) (tree *RenderedTree, err error) {
	defer func() {
		if p := recover(); p != nil {
			tree, err = nil, failure.FromPanic("rendering", p)
		}
	}()
	return installation.RenderTreeWith(ctx, rootInstallation(spec), prevRoot, spec.StandIns)
}

// newJob starts a job whose deployers may be handed the targets refs allow
// (execution.CheckTarget): a parameter, so no job is made without them.
func (e *Engine) newJob(ctx context.Context, refs snapshot.ProviderRefs) *job.Job {
	backoff := e.Backoff
	if backoff == (Backoff{}) {
		backoff = phase.DefaultBackoff
	}
	parallelism, abortTimeout := e.Parallelism, e.AbortTimeout
	if parallelism <= 0 {
		parallelism = DefaultParallelism
	}
	if abortTimeout <= 0 {
		abortTimeout = api.DefaultAbortTimeout
	}
	pickupTimeout := e.PickupTimeout
	switch {
	case pickupTimeout == 0:
		pickupTimeout = api.DefaultPickupTimeout
	case pickupTimeout < 0:
		pickupTimeout = 0
	}
	// Job IDs are UUIDv7, ordered by time like instance IDs
	// (deployer.NewInstance): a destroy that lost its instance bounds
	// what it may delete by its last job's ID, as every newer instance
	// was made after that job.
	id, err := uuid.NewV7()
	if err != nil { // only when the random source fails
		id = uuid.New()
	}
	j := job.New(ctx, id.String(), e.registry(), parallelism, backoff, abortTimeout, e.Log)
	j.Clusters, j.DefaultTimeout, j.PickupTimeout = e.Clusters, e.DefaultTimeout, pickupTimeout
	j.ProviderRefs = refs
	return j
}

// jobRefs are the Targets of an apply or a plan that may take a kubeconfig
// of the provider block: the root's target imports, and those the
// previous job recorded, where the items it applied are deleted from.
func jobRefs(spec RootSpec, prevRoot *snapshot.Installation) snapshot.ProviderRefs {
	now := snapshot.TargetImports{Single: spec.Imports.Targets, Lists: spec.Imports.TargetLists, Maps: spec.Imports.TargetMaps}
	if prevRoot == nil {
		return snapshot.RootProviderRefs(now)
	}
	return snapshot.RootProviderRefs(now, prevRoot.Targets)
}

func validateSpec(spec RootSpec) error {
	var errs []error
	if spec.Name == "" {
		errs = append(errs, errors.New("root installation has no name"))
	}
	if spec.Blueprint == nil {
		errs = append(errs, fmt.Errorf("root installation %q has no blueprint", spec.Name))
	}
	return failure.NewTerminal("InvalidInstallation", errors.Join(errs...))
}

func rootInstallation(spec RootSpec) installation.Spec {
	return installation.Spec{
		Path: spec.Name, Name: spec.Name, Blueprint: spec.Blueprint, Component: spec.Component,
		ImportDataMappings: spec.ImportDataMappings, ExportDataMappings: spec.ExportDataMappings,
		Imports:   func() (blueprint.Imports, error) { return spec.Imports, nil },
		WriteOnly: spec.WriteOnly,
	}
}

// failedJob records a job that failed before anything ran: the previous
// tree unchanged, the root Failed and finished with the new job ID.
func failedJob(j *job.Job, name string, prev *snapshot.Installation, err error) *Snapshot {
	root := prev.Clone()
	if root == nil {
		if name == "" {
			return &Snapshot{Version: snapshot.Version} // nothing exists, nothing to name
		}
		root = &snapshot.Installation{Path: name, Name: name}
	}
	root.JobID, root.JobIDFinished = j.ID, j.ID
	root.Phase, root.LastError = api.InstallationPhaseFailed, snapshot.NewError("Reconcile", err)
	return &Snapshot{Version: snapshot.Version, Root: root}
}
