package manifest

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// ProviderStatus is what Apply records in the deploy item
// (Landscaper's manifest ProviderStatus, plus a hash per object).
type ProviderStatus struct {
	APIVersion       string            `json:"apiVersion"`
	Kind             string            `json:"kind"`
	ManagedResources []ManagedResource `json:"managedResources"`
}

// StatusAPIVersion is the apiVersion of ProviderStatus.
const StatusAPIVersion = "manifest.deployer.landscaper.gardener.cloud/v1alpha2"

// ManagedResource is one object the item created or adopted.
type ManagedResource struct {
	Resource             ObjectRef         `json:"resource"`
	Policy               Policy            `json:"policy,omitempty"`
	AnnotateBeforeDelete map[string]string `json:"annotateBeforeDelete,omitempty"`
	PatchBeforeDelete    json.RawMessage   `json:"patchBeforeDelete,omitempty"`
	// Hash is the hash of the manifest last applied (see Desired.Hash).
	Hash string `json:"hash,omitempty"`
	// ResourceVersion is the object's resourceVersion when Apply last left
	// it as its manifest wants it: after its own write, or after a read in
	// which driftOf found nothing. A drift check that finds the object
	// still at it compares nothing (unmoved.go). "" reads it whole.
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// anyOwner: a deletion group's deleteAllResources chose it, which
	// deletes every object of its types, whoever owns it (Landscaper's
	// semantics); never recorded.
	anyOwner bool
}

// DecodeStatus reads a ProviderStatus written by EncodeStatus; nil or empty
// input is an empty status.
func DecodeStatus(raw json.RawMessage) ([]ManagedResource, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s ProviderStatus
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("previous provider status cannot be read: %w", err)
	}
	return s.ManagedResources, nil
}

// EncodeStatus writes the managed resources in a stable order.
func EncodeStatus(resources []ManagedResource) json.RawMessage {
	sorted := append([]ManagedResource(nil), resources...)
	sort.SliceStable(sorted, func(i, j int) bool { return lessRef(sorted[i].Resource, sorted[j].Resource) })
	if sorted == nil {
		sorted = []ManagedResource{}
	}
	b, _ := json.Marshal(ProviderStatus{APIVersion: StatusAPIVersion, Kind: "ProviderStatus", ManagedResources: sorted})
	return b
}

// NewResult is the deployer.Result of a call that leaves managed in the
// cluster: their provider status and the objects it records.
func NewResult(managed []ManagedResource, exports map[string]any) deployer.Result {
	return deployer.Result{ProviderStatus: EncodeStatus(managed), Objects: Objects(managed), Exports: exports}
}

// Objects names the objects of managed, as deployer.Result lists them.
func Objects(managed []ManagedResource) []deployer.ObjectRef {
	if len(managed) == 0 {
		return nil
	}
	out := make([]deployer.ObjectRef, len(managed))
	for i, m := range managed {
		r := m.Resource
		out[i] = deployer.ObjectRef{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
	}
	return out
}

func lessRef(a, b ObjectRef) bool {
	if a.APIVersion != b.APIVersion {
		return a.APIVersion < b.APIVersion
	}
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	if a.Namespace != b.Namespace {
		return a.Namespace < b.Namespace
	}
	return a.Name < b.Name
}

// statusSet is the managed resources of one run, keyed by object; it is
// updated as objects are written and deleted, so that the status returned
// on any error records exactly what exists.
type statusSet map[key]ManagedResource

func newStatusSet(prev []ManagedResource) statusSet {
	s := statusSet{}
	for _, r := range prev {
		s[keyOf(r.Resource)] = r
	}
	return s
}

func (s statusSet) list() []ManagedResource {
	out := make([]ManagedResource, 0, len(s))
	for _, r := range s {
		out = append(out, r)
	}
	return out
}
