package deployer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Previewer is a Deployer that can say, without a cluster, what a deploy
// item's configuration deploys: the objects a plan shows and diffs
// (package preview). Deployers that deploy no Kubernetes objects may
// implement it too and describe what they deploy as documents of their
// own apiVersion and kind; a deployer that does not implement it is shown
// by its configuration (ConfigObject).
type Previewer interface {
	// Preview returns the objects req.Item.Config deploys. It MUST NOT
	// contact the target cluster and MUST return the same objects for the
	// same request (values a deployer generates anew at every apply, such
	// as a chart's random passwords, are replaced by a fixed marker). It
	// may read what Apply reads besides the cluster (chart archives of a
	// registry or repository), bounded by ctx. Errors in the
	// configuration are terminal, like Validate's.
	Preview(ctx context.Context, req PreviewRequest) (Preview, error)
}

// Generated replaces, in a preview, a value the deployer makes anew at
// every apply (a chart's randAlphaNum, uuidv4, genCA …): showing one
// random draw would change the plan at every run without any change in
// the configuration.
const Generated = "(generated at apply)"

// PreviewRequest is one deploy item to preview.
type PreviewRequest struct {
	// Item is the item as Apply would get it, except that Target is only
	// what the plan knows (it may be nil) and is never contacted;
	// ProviderStatus is the last apply's (nil for a new item).
	Item Item
	// Capabilities are what the item's cluster offered at the last apply
	// (CapabilitiesReader); nil: the deployer's defaults.
	Capabilities *Capabilities
	// Applied is the item's configuration at its last apply (nil for a
	// new item). A plan runs before anyone approved the new configuration,
	// and a blueprint is untrusted: a deployer reaches at plan only the
	// hosts that apply reached (ErrFetchedAtApply otherwise), so a
	// blueprint cannot send what it rendered to a host of its choosing
	// before the user approved the plan.
	Applied json.RawMessage
	// Pins are the digests resolved at refresh of what the item fetches
	// (SourceResolver): a source that now serves other content fails the
	// preview with a PinMovedError. nil: what the sources serve.
	Pins Pins
}

// ErrFetchedAtApply is wrapped by a Preview error for an item whose
// preview would reach a host its last apply did not: the item is shown
// as not previewed, without a warning (every new item of a remote chart
// gets it).
var ErrFetchedAtApply = errors.New("fetched at apply, not at plan")

// ErrBeyondLimit is wrapped by an error of an item that a limit of its
// cluster or of a tool it deploys with will refuse, whatever the cluster's
// state (Helm's record of a release bigger than a Secret holds): as a
// Preview error it fails the plan, naming the item, the size and the
// limit, so that nothing is created first.
var ErrBeyondLimit = errors.New("beyond a limit")

// Preview is what an item deploys.
type Preview struct {
	Objects []PreviewObject
	// Pins are the digests of what the preview fetched (SourceResolver);
	// nil when it fetched nothing from outside the configuration.
	Pins Pins
}

// PreviewObject is one object an item deploys.
type PreviewObject struct {
	// Object is the object as the deployer sends it, without the
	// bookkeeping labels and annotations it adds to everything (owner,
	// instance, part-of): those never differ between two plans of an
	// item. It has apiVersion, kind and metadata.name.
	Object map[string]any
	// Note says how the deployer treats the object when that is not
	// plainly "create, update, delete" ("policy: keep", "helm hook:
	// pre-install"); "" otherwise.
	Note string
}

// Capabilities are what a cluster offers to templates that ask (Helm's
// .Capabilities): the Kubernetes version and the API versions it serves.
// A plan renders with the capabilities recorded at the last apply, since
// it may not contact the cluster.
type Capabilities struct {
	// KubeVersion is the API server's git version, e.g. "v1.31.2";
	// KubeMajor and KubeMinor are its major and minor version as the
	// server reports them (a minor may read "31+").
	KubeVersion string `json:"kubeVersion"`
	KubeMajor   string `json:"kubeMajor,omitempty"`
	KubeMinor   string `json:"kubeMinor,omitempty"`
	// APIVersions are "group/version" and "group/version/Kind" strings as
	// Helm lists them ("v1", "apps/v1", "apps/v1/Deployment"), sorted.
	APIVersions []string `json:"apiVersions"`
}

// CapabilitiesReader is a Deployer that can read a target cluster's
// Capabilities after an apply, so the provider can record them for the
// next plan's previews. It reads from the deployer's shared discovery
// cache, which the apply just filled.
type CapabilitiesReader interface {
	Capabilities(ctx context.Context, target *api.Target) (*Capabilities, error)
}

// Previewer returns the deployer of itemType when it implements
// Previewer; false for an unknown type or a deployer that cannot preview.
func (r *Registry) Previewer(itemType string) (Previewer, bool) {
	p, ok := r.byType[itemType].(Previewer)
	return p, ok
}

// ServerPreviewer is a Previewer that can also ask the item's cluster
// (the provider's plan_diff = "server"): what the API server would make
// of the previewed objects, and what is there now. Both read only: a
// server-side apply with dryRun=All changes nothing.
type ServerPreviewer interface {
	Previewer
	// DryRun returns objs as the API server would store them after this
	// deployer applied them: a dry-run server-side apply under the field
	// manager Apply uses, so fields other managers own stay, defaults and
	// admission webhooks apply, and drift of the fields the item owns is
	// repaired. Metadata the server keeps for itself (managedFields,
	// resourceVersion, uid, timestamps), status and the bookkeeping
	// labels are dropped. An object the server cannot dry-run on its own
	// (its namespace or CRD comes with the same apply) comes back as
	// given, its note saying why. An error means the cluster could not be
	// asked at all.
	DryRun(ctx context.Context, item Item, objs []PreviewObject) ([]PreviewObject, error)
	// Live reads the objects refs name as they are in item's cluster, in
	// DryRun's form; those that do not exist are left out. An error means
	// the cluster could not be asked.
	Live(ctx context.Context, item Item, refs []ObjectRef) ([]PreviewObject, error)
}

// ServerPreviewer returns the deployer of itemType when it implements
// ServerPreviewer.
func (r *Registry) ServerPreviewer(itemType string) (ServerPreviewer, bool) {
	p, ok := r.byType[itemType].(ServerPreviewer)
	return p, ok
}

// DeployItemAPIVersion and DeployItemKind describe an item whose deployer
// cannot preview its objects (ConfigObject).
const (
	DeployItemAPIVersion = "landscaper.gardener.cloud/v1alpha1"
	DeployItemKind       = "DeployItem"
)

// ConfigObject describes a deploy item by its configuration, for a
// deployer that is no Previewer (or an external deployer's item, known
// by nothing else before it runs): the plan then shows which fields of
// the item's spec change.
func ConfigObject(name, itemType string, config json.RawMessage) (PreviewObject, error) {
	var cfg any
	if len(bytes.TrimSpace(config)) > 0 {
		if err := api.DecodeExact(config, &cfg, api.AllowTrailing); err != nil {
			return PreviewObject{}, fmt.Errorf("deploy item %q: config: %w", name, err)
		}
	}
	return PreviewObject{Object: map[string]any{
		"apiVersion": DeployItemAPIVersion, "kind": DeployItemKind,
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"type": itemType, "config": cfg},
	}}, nil
}
