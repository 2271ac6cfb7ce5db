package manifest

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

var _ deployer.Adopter = (*Deployer)(nil)

// Adopt implements deployer.Adopter: every object Landscaper's status
// records is read once and must exist and carry Landscaper's label with
// the DeployItem's name (or already this item's owner label).
func (d *Deployer) Adopt(ctx context.Context, item deployer.Item, from deployer.Landscaped) (json.RawMessage, error) {
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return nil, itemError(item, err)
	}
	managed, err := NewSession(clients, item.ID).Adopt(ctx, from)
	if err != nil {
		return nil, itemError(item, err)
	}
	return EncodeStatus(managed), nil
}

// Adopt reads the objects that from's provider status (Landscaper's
// managedResources) records and returns them as this session's managed
// resources, each with the UID it has now. Objects with policy ignore
// are not Landscaper's to delete and are left out. It writes nothing.
func (s *Session) Adopt(ctx context.Context, from deployer.Landscaped) ([]ManagedResource, error) {
	recorded, err := landscaperResources(from.ProviderStatus)
	if err != nil {
		return nil, fmt.Errorf("DeployItem %s: status.providerStatus: %w", from.DeployItem, err)
	}
	var out []ManagedResource
	for _, r := range recorded {
		if r.Policy == PolicyIgnore {
			continue
		}
		live, err := liveReader{s}.get(ctx, r.Resource)
		if err != nil {
			return nil, err
		}
		if live == nil {
			return nil, failure.Terminalf("AdoptMissing", "%s, which Landscaper's DeployItem %s records, does not exist; let Landscaper reconcile the installation (or remove the object from its status) before importing it",
				r.Resource, from.DeployItem)
		}
		if r.Resource.UID != "" && string(live.GetUID()) != r.Resource.UID {
			return nil, failure.Terminalf("AdoptRecreated", "%s was recreated since Landscaper's DeployItem %s recorded it (another UID); let Landscaper reconcile the installation before importing it",
				r.Resource, from.DeployItem)
		}
		if owner := landscaperOwner(live); owner != from.DeployItem && live.GetLabels()[deployer.OwnerLabel] != s.owner {
			if r.Policy == PolicyFallback {
				continue // another's object that Landscaper only fell back on: never ours
			}
			return nil, failure.Terminalf("AdoptNotOwned", "%s is not labeled as deployed by Landscaper's DeployItem %s (%s or %s); it is not adopted",
				r.Resource, from.DeployItem, deployer.LandscaperManifestItemLabel, deployer.LandscaperHelmItemLabel)
		}
		r.Resource.UID = string(live.GetUID())
		r.Hash = "" // not applied by this deployer yet: its next Apply writes it
		out = append(out, r)
	}
	return out, nil
}

// landscaperResources reads Landscaper's managedResources, which have the
// shape of this deployer's (resource, policy, annotateBeforeDelete,
// patchBeforeDelete).
func landscaperResources(raw json.RawMessage) ([]ManagedResource, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var s struct {
		ManagedResources []ManagedResource `json:"managedResources"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("managedResources cannot be read: %w", err)
	}
	for i, r := range s.ManagedResources {
		if r.Resource.APIVersion == "" || r.Resource.Kind == "" || r.Resource.Name == "" {
			return nil, fmt.Errorf("managedResources[%d]: resource needs apiVersion, kind and name", i)
		}
		if r.Policy == "" {
			s.ManagedResources[i].Policy = PolicyManage
		}
	}
	return s.ManagedResources, nil
}

// landscaperOwner is the DeployItem name Landscaper's label on live gives.
func landscaperOwner(live *unstructured.Unstructured) string {
	labels := live.GetLabels()
	if v := labels[deployer.LandscaperManifestItemLabel]; v != "" {
		return v
	}
	return labels[deployer.LandscaperHelmItemLabel]
}

// adoptedFromLandscaper reports whether live is the object r recorded when
// its item was adopted from Landscaper and not applied by this deployer
// since: the very object recorded (same UID), still with Landscaper's
// label and without deployer.OwnerLabel. It then counts as the item's own.
func adoptedFromLandscaper(live *unstructured.Unstructured, r ManagedResource) bool {
	return r.Resource.UID != "" && string(live.GetUID()) == r.Resource.UID &&
		live.GetLabels()[deployer.OwnerLabel] == "" && landscaperOwner(live) != ""
}

// withoutOwnerMarks is want without the owner label and annotation that
// DecodeManifests adds, which an adopted object does not carry yet.
func withoutOwnerMarks(want map[string]any) map[string]any {
	meta, ok := want["metadata"].(map[string]any)
	if !ok {
		return want
	}
	out := make(map[string]any, len(want))
	for k, v := range want {
		out[k] = v
	}
	m := make(map[string]any, len(meta))
	for k, v := range meta {
		m[k] = v
	}
	m["labels"] = without(m["labels"], deployer.OwnerLabel)
	m["annotations"] = without(m["annotations"], deployer.OwnerAnnotation)
	out["metadata"] = m
	return out
}

func without(v any, key string) any {
	in, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := make(map[string]any, len(in))
	for k, e := range in {
		if k != key {
			out[k] = e
		}
	}
	return out
}
