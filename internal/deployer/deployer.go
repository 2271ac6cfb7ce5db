// Package deployer is the contract between the engine and the deployers
// (ARCHITECTURE.md), and the registry that finds a deployer by deploy item
// type. Deployers never import the engine; the engine, and the
// installation inventory that records every call, only know this package.
// A deployer implements:
//   - Deployer (this file): Apply, Delete, Drift and Validate of an Item;
//     Apply returns a Result whose ProviderStatus is the deployer's own
//     and whose Objects name what it manages in the target cluster;
//   - the ownership labels (ownership.go) on everything it creates, and
//     AdoptedBy before it deletes something another instance may hold;
//   - optionally Adopter (adopt.go), to take over what Landscaper's
//     deployer of the same type deployed;
//   - Item.GoIdle while it only waits, and Item.SharedReads (shared.go)
//     where a destroy or drift check may share one list among its items;
//   - Homed (homed.go) when it keeps an item's objects in a cluster of
//     its own rather than the item's target cluster.
//
// Registry (registry.go) finds a deployer by type; Wrap (wrap.go) puts
// something around every call of one job.
package deployer

import (
	"context"
	"encoding/json"
	"io/fs"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// Item is one deploy item as a deployer sees it.
type Item struct {
	// ID is unique across the whole installation tree and stable across
	// applies ("<root>/<subinstallation>/.../<item name>"). Deployers label
	// what they create with it, so ownership survives a lost state.
	ID string
	// Name is the item's name inside its execution, for messages.
	Name string
	Type string
	// Target is the resolved target; nil when the template names none.
	// It holds credentials: never log it.
	Target *api.Target
	// Targets are the installation's target imports by the Target's name
	// (metadata.name), for a configuration that reads, waits or deletes
	// on another cluster than Target's (Landscaper's targetName, which
	// Landscaper resolves among the Targets of the deploy item's
	// namespace). A name two different imports share is left out. They
	// hold credentials: never log them. nil: none (Drift, or a caller
	// without an installation).
	Targets map[string]*api.Target
	// Config is the item's provider configuration (`spec.config`).
	Config json.RawMessage
	// Idle is the engine's hook for a call that now only waits for the
	// cluster (watch events, no requests of its own); call it through
	// GoIdle. nil outside the engine.
	Idle func() (resume func())
	// SharedReads lets the calls of one job that reads the whole
	// installation (a destroy, a drift check) share reads (shared.go);
	// nil: none.
	SharedReads *SharedReads
	// Timeouts are the call's timeouts of the deployer contract and who
	// measures each (timeouts.go). Unless the deployer hands the item off,
	// the engine already puts Progressing on the context; deployers use it
	// to size their own waits.
	Timeouts Timeouts
	// Context is the content of the installation's Landscaper Context
	// (its fields besides apiVersion, kind and metadata), for deployers
	// that hand items to Landscaper's deployers; nil: none. Only Apply
	// gets it.
	Context map[string]any
	// ProviderStatus is what the previous successful or partial Apply of
	// this item returned; nil on its first apply.
	ProviderStatus json.RawMessage
	// Files is the filesystem of the blueprint that rendered the item, so
	// a config may name files relative to it (e.g. a local Helm chart).
	// May be nil.
	Files fs.FS
	// Instance is the Terraform resource instance that owns the
	// installation (a UUID made at its Create). Deployers stamp it on
	// everything they create and Delete leaves what carries another
	// instance: a newer instance (create_before_destroy, an apply after a
	// lost state) has adopted it. Empty: no instance checks.
	Instance string
	// PartOf is the ApplySet ID of the installation's inventory in the
	// item's target cluster: deployers label what they create with it
	// (applyset.kubernetes.io/part-of). Empty: no label.
	PartOf string
	// Rebuilt says ProviderStatus (and, for an item the blueprint no
	// longer renders, Config) was read from the installation's inventory
	// in the target cluster after a lost state, an import or a replaced
	// tainted instance, not from Terraform state: whoever may write
	// Secrets there could have written it. The deployer then changes or
	// deletes only what carries this item's OwnerLabel, never what a
	// status from state alone would let it take (an object Landscaper
	// labeled, a release without labels at the recorded revision), and
	// follows no configuration that reaches beyond what it recorded
	// (deleteAllResources).
	Rebuilt bool
	// Pins are the digests the plan was made with of what the item
	// fetches (SourceResolver); Apply fails with a PinMovedError, before
	// it deploys anything, when a source now serves other content. nil:
	// whatever the sources serve.
	Pins Pins
	// WriteOnly are the installation's write-only forms (imports.data_wo):
	// a hash the deployer stores of the config (its provider status is in
	// private state and the inventory) is their fingerprint (package
	// fingerprint), and a config holding one cannot be compared by that
	// hash, so an Apply must not skip writing for it. nil: none (Drift,
	// Delete, a replay).
	WriteOnly fingerprint.Forms
}

// Result is what an Apply achieved.
type Result struct {
	// ProviderStatus records what exists in the target after the call
	// (managed resources, release name …) in the deployer's own format.
	// The engine stores it and hands it back as Item.ProviderStatus on
	// the next Apply, Drift or Delete; nobody else reads it.
	ProviderStatus json.RawMessage
	// Objects are the Kubernetes objects in the item's target cluster
	// (for a Homed deployer: in the item's home) that ProviderStatus
	// records, also on error: what the deployer manages there for the
	// item now. The installation inventory lists
	// their kinds and namespaces on its parent (ApplySet annotations), so
	// a deployer that creates Kubernetes objects MUST fill it whenever it
	// returns a ProviderStatus; one that creates none leaves it nil.
	Objects []ObjectRef
	// Exports are the item's exports (`deployitems.<name>` in export
	// executions).
	Exports map[string]any
}

// DeleteOptions modify Delete.
type DeleteOptions struct {
	// WithoutUninstall leaves everything in the target and only forgets it
	// (Landscaper's delete-without-uninstall annotation).
	WithoutUninstall bool
}

// DriftReport says whether what an item deployed is still as deployed.
type DriftReport struct {
	Drifted bool
	// Reason names the object and what differs, for the plan; never
	// contains secret values.
	Reason string
}

// Deployer applies and deletes deploy items of one type.
type Deployer interface {
	// Apply makes the target match item.Config and waits until it is ready,
	// bounded by ctx. It MUST be idempotent: applying an unchanged item
	// again changes nothing in the target. On error it MUST still return a
	// Result whose ProviderStatus (and Objects) records everything that
	// now exists in the target because of this item, so nothing is ever
	// orphaned. What it creates carries the ownership labels
	// (ownership.go) of item.ID, item.Instance and item.PartOf.
	// Errors are classified with package failure: terminal for invalid
	// configuration, transient for anything a retry may heal. A cancelled
	// ctx MUST make Apply return promptly.
	Apply(ctx context.Context, item Item) (Result, error)
	// Delete removes everything item.ProviderStatus records (and anything
	// else labelled with item.ID) and waits until it is gone. Deleting an
	// item that does not exist (any more) succeeds.
	Delete(ctx context.Context, item Item, opts DeleteOptions) error
	// Drift compares the target with item.ProviderStatus and item.Config,
	// cheaply (one read per object or release). It MUST NOT change anything.
	Drift(ctx context.Context, item Item) (DriftReport, error)
	// Validate parses config as Apply would, without a cluster, files or
	// network, and returns the error Apply would fail with for it. The
	// engine calls it at plan time for every rendered deploy item, so an
	// invalid configuration is reported before anything is deployed. Its
	// errors are terminal; the caller names the item.
	Validate(config json.RawMessage) error
}

// GoIdle tells the caller that the deployer now only waits for the
// cluster (watch events, no requests of its own), so its parallelism slot
// may go to another deploy item (Item.Idle). The deployer calls resume
// before it sends requests again; resume may block until a slot is free.
// Without a caller that supports it, GoIdle does nothing.
func (it Item) GoIdle() (resume func()) {
	if it.Idle != nil {
		return it.Idle()
	}
	return func() {}
}
