package landscaperstate

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// Landscape is one root Installation and everything Landscaper made for
// it, as read from the host cluster.
type Landscape struct {
	// Root is the root Installation with its tree.
	Root *Installation
	// Manifest is the root Installation as a user keeps it in git: YAML
	// with apiVersion, kind, metadata (name, namespace, the user's labels
	// and annotations) and spec; no status, server fields or the
	// annotations Landscaper's controllers act on.
	Manifest string
	// ManifestObjects are the objects the root reads, in the same form,
	// as one YAML stream: the DataObjects of its dataRef imports, the
	// Targets of its target imports (a Target whose config is in a Secret
	// comes with the Secret's content as spec.config) and its Context. It
	// holds credentials: treat it as sensitive.
	ManifestObjects string
	// Objects are every host-cluster object Read took as Landscaper's
	// record of this landscape (Installations, Executions, DeployItems,
	// the DataObjects and Targets they made, export Secrets), in no
	// particular order; what a migration leaves behind or removes.
	Objects []deployer.ObjectRef
}

// Installation is a root or subinstallation.
type Installation struct {
	deployer.ObjectRef
	// SpecName is a subinstallation's name in its parent's blueprint
	// ("" for the root).
	SpecName string
	// Phase is Landscaper's installation phase ("Succeeded", …);
	// JobID and JobIDFinished its last job (equal when it finished).
	Phase, JobID, JobIDFinished string
	// ImportsHash is the hash of the imports Landscaper last saw.
	ImportsHash string
	// LastError is the status' lastError message, "" without one.
	LastError string
	// Spec is the Installation's spec as stored.
	Spec json.RawMessage
	// Imports are the data values the installation imported, by import
	// name, as Landscaper recorded them (after importDataMappings).
	Imports map[string]json.RawMessage
	// ImportedTargets are the Targets it imported, by import name (one
	// for a target import, the list in order for a targetList).
	ImportedTargets map[string][]api.Target
	// Exports are the data it exported, by dataRef (the name in the
	// parent's context; for the root the DataObject's name).
	Exports map[string]json.RawMessage
	// Execution runs its deploy items; nil when its blueprint has none.
	Execution *Execution
	// Subinstallations in the order of their spec names.
	Subinstallations []*Installation
}

// Execution is an installation's Execution.
type Execution struct {
	deployer.ObjectRef
	Phase, JobID, JobIDFinished string
	// DeployItems in the order of the Execution's templates.
	DeployItems []*DeployItem
	// Exports are the deploy items' exports by item name, as the
	// Execution collected them (DeployItem.Exports, gathered).
	Exports json.RawMessage
	// Orphaned names DeployItems of this Execution that no template
	// renders any more (Landscaper deletes them on its next run).
	Orphaned []string
}

// DeployItem is one deploy item: what it was told to deploy and what its
// deployer recorded as deployed.
type DeployItem struct {
	deployer.ObjectRef
	// Name is the item's name in its blueprint.
	Name string
	Type string
	// Config is the deployer configuration (spec.config) as stored.
	Config json.RawMessage
	// DependsOn, Timeout ("" without one) and UpdateOnChangeOnly come
	// from the Execution's template.
	DependsOn          []string
	Timeout            string
	UpdateOnChangeOnly bool
	// Labels are the template's labels.
	Labels map[string]string
	// TargetName is the Target object the item deployed with ("" for
	// none) and Target that Target, its config resolved; it holds
	// credentials.
	TargetName string
	Target     *api.Target
	Phase      string
	JobID      string
	// JobIDFinished equals JobID when the deployer finished the job.
	JobIDFinished string
	LastError     string
	// ProviderStatus is status.providerStatus as stored.
	ProviderStatus json.RawMessage
	// Resources are the objects the deployer recorded as deployed
	// (providerStatus.managedResources), in its order.
	Resources []Resource
	// Helm is the release of a Helm deploy item that Helm installed
	// (helmDeployment not false); nil otherwise.
	Helm *HelmRelease
	// OwnerLabel is the label Landscaper's deployer put on the objects
	// it applied (key and value, the item's object name); empty for a
	// Helm release, whose objects carry Helm's own labels.
	OwnerLabel Label
	// Exports are the item's exports (the export Secret's "config"),
	// nil without any. May hold secrets.
	Exports json.RawMessage
}

// Resource is one object a deployer manages.
type Resource struct {
	APIVersion, Kind, Namespace, Name string
	// UID as the deployer recorded it ("" when it did not).
	UID string
	// Policy is the manifest policy (manage, fallback, keep, ignore,
	// immutable; "" for Helm releases).
	Policy               string
	AnnotateBeforeDelete map[string]string
	PatchBeforeDelete    json.RawMessage
}

// HelmRelease is where a Helm release lives.
type HelmRelease struct {
	Name, Namespace string
}

// Label is a label key and value.
type Label struct{ Key, Value string }

// Walk calls fn for inst and every installation below it, parents first.
func (inst *Installation) Walk(fn func(*Installation)) {
	fn(inst)
	for _, sub := range inst.Subinstallations {
		sub.Walk(fn)
	}
}
