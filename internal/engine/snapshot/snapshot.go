// Package snapshot is the object tree of one root installation after a job:
// installations, their executions and deploy items with phases, job IDs,
// hashes, provider statuses and exports. The provider keeps it, as
// versioned deterministic JSON, in Terraform private state; the next job
// and the delete flow start from it.
//
// A snapshot holds the resolved target imports of every installation,
// because deleting needs them when the configuration is gone. Treat it as
// sensitive, like the Terraform state it lives in.
package snapshot

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Version is the version Marshal writes. Unmarshal migrates older ones;
// version 2 documents without a deploy item's appliedTarget are read as
// they are (see DeployItem.AppliedTarget).
const Version = 2

// Snapshot is the whole tree of one root installation.
type Snapshot struct {
	Version int           `json:"version"`
	Root    *Installation `json:"root,omitempty"`
}

// Installation is one installation of the tree.
type Installation struct {
	// Path is the installation's stable ID, e.g. "root" or "root/db".
	Path          string                `json:"path"`
	Name          string                `json:"name"`
	Phase         api.InstallationPhase `json:"phase,omitempty"`
	JobID         string                `json:"jobID,omitempty"`
	JobIDFinished string                `json:"jobIDFinished,omitempty"`
	ImportsHash   string                `json:"importsHash,omitempty"`
	LastError     *Error                `json:"lastError,omitempty"`
	// Targets are the resolved target imports, which deploy items select
	// from; kept so that deleting needs no configuration.
	Targets TargetImports `json:"targets,omitzero"`
	// Exports and TargetExports are the installation's exports after its
	// export data mappings, by export name.
	Exports       map[string]any        `json:"exports,omitempty"`
	TargetExports map[string]api.Target `json:"targetExports,omitempty"`
	// State is the `state` output of the executions, fed back next job.
	State map[string]json.RawMessage `json:"state,omitempty"`
	// ImportRefs and ExportRefs are the names in the parent's scope this
	// installation reads and writes; the delete flow orders siblings by
	// them (an installation waits while its successors exist).
	ImportRefs []string `json:"importRefs,omitempty"`
	// Blueprint is where a subinstallation's blueprint comes from, as its
	// parent rendered it (nil for the root), so that Drift finds the
	// blueprint files of each deploy item without rendering anything.
	Blueprint        *api.SubinstallationBlueprint `json:"blueprint,omitempty"`
	ExportRefs       []string                      `json:"exportRefs,omitempty"`
	Execution        *Execution                    `json:"execution,omitempty"`
	Subinstallations []*Installation               `json:"subinstallations,omitempty"`
}

// TargetImports are resolved target imports by import name.
type TargetImports struct {
	Single map[string]api.Target            `json:"single,omitempty"`
	Lists  map[string][]api.Target          `json:"lists,omitempty"`
	Maps   map[string]map[string]api.Target `json:"maps,omitempty"`
}

// Execution holds the deploy items of one installation.
type Execution struct {
	Phase         api.ExecutionPhase `json:"phase,omitempty"`
	JobID         string             `json:"jobID,omitempty"`
	JobIDFinished string             `json:"jobIDFinished,omitempty"`
	LastError     *Error             `json:"lastError,omitempty"`
	DeployItems   []*DeployItem      `json:"deployItems,omitempty"`
}

// DeployItem is one deploy item and what its deployer reported.
type DeployItem struct {
	// ID is "<installation path>/<name>", stable across jobs.
	ID     string              `json:"id"`
	Name   string              `json:"name"`
	Type   string              `json:"type"`
	Target *api.TargetSelector `json:"target,omitempty"`
	// AppliedTarget is the resolved target the item was last applied
	// with, recorded before its deployer is called (a failed call may
	// have deployed something). Delete, orphan removal and Drift use it,
	// so what was deployed is found where it is even after the target
	// imports changed. On the wire it is the target's content hash into
	// the snapshot's target table. nil when never applied (or written
	// before targets were recorded per item).
	AppliedTarget      *api.Target         `json:"appliedTarget,omitempty"`
	DependsOn          []string            `json:"dependsOn,omitempty"`
	Config             json.RawMessage     `json:"config,omitempty"`
	ConfigHash         string              `json:"configHash,omitempty"`
	Timeout            *api.Duration       `json:"timeout,omitempty"`
	UpdateOnChangeOnly bool                `json:"updateOnChangeOnly,omitempty"`
	Phase              api.DeployItemPhase `json:"phase,omitempty"`
	JobID              string              `json:"jobID,omitempty"`
	JobIDFinished      string              `json:"jobIDFinished,omitempty"`
	LastError          *Error              `json:"lastError,omitempty"`
	// ProviderStatus records what exists in the target because of this
	// item; nil when nothing was ever deployed.
	ProviderStatus json.RawMessage `json:"providerStatus,omitempty"`
	// Rebuilt says ProviderStatus and Config were read from the
	// installation's inventory in a target cluster, not written by a
	// call of this provider (deployer.Item.Rebuilt); cleared by the
	// item's next successful apply.
	Rebuilt bool           `json:"rebuilt,omitempty"`
	Exports map[string]any `json:"exports,omitempty"`
	// AppliedConfigHash is the ConfigHash of the last successful apply
	// (updateOnChangeOnly skips the deployer when it is unchanged); ""
	// after refresh found the item drifted (MarkDrifted).
	AppliedConfigHash string `json:"appliedConfigHash,omitempty"`
}

// Error is an object's lastError.
type Error struct {
	Operation string `json:"operation"`
	Reason    string `json:"reason,omitempty"`
	Message   string `json:"message"`
	// Retryable says a new job without a configuration change may heal it
	// (transient errors whose retries ran out, interrupts); false for
	// terminal errors, which need a changed configuration.
	Retryable bool `json:"retryable,omitempty"`
}
