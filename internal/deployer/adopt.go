package deployer

import (
	"context"
	"encoding/json"
)

// Landscaper's manifest deployer, and its Helm deployer when it only
// renders a chart, label every object they apply with the name of the
// DeployItem object (LandscaperManifestItemLabel); the Helm deployer adds
// LandscaperHelmItemLabel to the objects of a chart it rendered. (A Helm
// release installed with Helm carries Helm's labels and annotations
// instead.) Adoption takes such objects over without writing to them:
// until this provider's deployer applies the item again, an adopted
// object keeps Landscaper's label instead of OwnerLabel.
const (
	LandscaperManifestItemLabel = "manifest.deployer.landscaper.gardener.cloud/deployitem"
	LandscaperHelmItemLabel     = "helm.deployer.landscaper.gardener.cloud/deployitem"
)

// Landscaped is what one of Landscaper's own deployers recorded for a
// DeployItem it deployed, as a running Landscaper leaves it on its host
// cluster.
type Landscaped struct {
	// DeployItem is the name of the DeployItem object; Landscaper's
	// manifest and Helm deployers label what they deploy with it
	// (LandscaperManifestItemLabel, LandscaperHelmItemLabel).
	DeployItem string
	// Namespace and UID are the DeployItem object's: an external
	// deployer's Adopt takes over that very object (same UID), so the
	// deployer in the cluster keeps its state and is not started again.
	Namespace, UID string
	// ProviderStatus is the DeployItem's status.providerStatus.
	ProviderStatus json.RawMessage
	// Config is the DeployItem's spec.config: what Landscaper's deployer
	// last deployed, which may differ from what this provider renders
	// for the item (then the import marks the item drifted). What is
	// adopted is what Landscaper deployed, e.g. the Helm release Config
	// names, never another object the rendered item happens to name.
	Config json.RawMessage
}

// Adopter is a Deployer that can take over what Landscaper's deployer of
// the same type deployed (migration from a running Landscaper).
type Adopter interface {
	// Adopt returns the provider status this deployer would have recorded
	// had it deployed item itself, so that the next Drift finds nothing
	// and the next Delete removes everything. It reads the target and
	// MUST NOT change anything there. It fails, naming the object, when
	// something Landscaper recorded is missing or belongs to someone else.
	Adopt(ctx context.Context, item Item, from Landscaped) (json.RawMessage, error)
}
