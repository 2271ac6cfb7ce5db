package manifest

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// A drift check reads every object an item manages, and a plan runs one
// for every item: 10,000 objects decoded into maps per plan of a large
// landscape, where nothing changed. The API server changes an object's
// resourceVersion with every write to it, so an object still at the
// version Apply recorded is the object Apply last saw, in which driftOf
// found nothing (applyObject): its versions alone, read as
// metadata (protobuf, without the objects' contents), settle it. Only the
// objects that moved are read whole and compared.

// maxResourceVersion bounds what is recorded of a resourceVersion read from
// a cluster: etcd's are decimal uint64s; anything longer is not recorded
// (the object is then read whole at every drift check).
const maxResourceVersion = 64

// recordedVersion is rv as Apply records it.
func recordedVersion(rv string) string {
	if len(rv) > maxResourceVersion {
		return ""
	}
	return rv
}

// unmoved reports, for each of managed, whether its object is still at
// the resourceVersion it recorded. The versions of one kind in one
// namespace come from one metadata list (the job's shared list of the
// installation's members, else one by the item's owner label), a lone
// object's from a metadata read by name. Whatever cannot be read so is
// reported as moved: the caller reads it whole, as without a version.
// A status rebuilt from the inventory (Item.Rebuilt) is not this
// provider's own record: whoever may write Secrets there could have set
// its versions to hide a change, so all of its objects are read whole.
func (s *Session) unmoved(ctx context.Context, managed []ManagedResource, mappingOf func(int) mapping) []bool {
	out := make([]bool, len(managed))
	if s.rebuilt {
		return out
	}
	groups := byKind(managed, mappingOf, func(i int, _ mapping) bool { return managed[i].ResourceVersion != "" })
	_ = parallelEach(ctx, len(groups), func(ctx context.Context, gi int) error {
		g := groups[gi]
		versions := s.versions(ctx, g.m, g.ns, len(g.members) == 1, managed[g.members[0]].Resource.Name)
		for _, i := range g.members {
			o := versions[managed[i].Resource.Name]
			out[i] = o != nil && o.ResourceVersion == managed[i].ResourceVersion
		}
		return nil
	})
	return out
}

// versions returns the metadata by name of the objects of one kind in
// namespace ns that a drift check of this session may need; nil when it
// cannot be read. lone asks for the object name alone. The map may be
// the job's shared one: read it, never change it.
func (s *Session) versions(ctx context.Context, m mapping, ns string, lone bool, name string) map[string]*metav1.PartialObjectMetadata {
	if byName, ok := s.sharedMetadata(ctx, m, ns); ok {
		return byName
	}
	client := s.metadataClient(m, ns)
	if lone {
		o, err := client.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return nil
		}
		return map[string]*metav1.PartialObjectMetadata{o.Name: o}
	}
	byName, err := listMetadata(ctx, client, deployer.OwnerLabel+"="+s.owner)
	if err != nil {
		return nil
	}
	return byName
}
