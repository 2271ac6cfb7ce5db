package manifest

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// membersKey names one list of an installation's ApplySet members: one
// kind in one namespace ("" for cluster-scoped kinds) of one cluster.
type membersKey struct {
	clients   *target.Clients
	gvr       schema.GroupVersionResource
	namespace string
	partOf    string
}

// sharedMember returns ref's live object from the job's shared list of
// the installation's members of ref's kind and namespace (one LIST by the
// ApplySet label answers for every deploy item of a destroy or a drift
// check). found is false when the call shares no reads, the session
// labels no ApplySet, the list failed (RBAC may grant get alone) or ref
// is not in it (never labeled, or created since): only a read by name
// tells then. The object is shared: read it, never change it.
func (s *Session) sharedMember(ctx context.Context, m mapping, ref ObjectRef) (live *unstructured.Unstructured, found bool) {
	shared := s.shared
	if shared == nil || s.partOf == "" {
		return nil, false
	}
	key := membersKey{clients: s.clients, gvr: m.GVR, partOf: s.partOf}
	if m.Namespaced {
		key.namespace = ref.Namespace
	}
	v, err := shared.Do(ctx, key, func(ctx context.Context) (any, error) {
		list, err := s.client(m, key.namespace).List(ctx, metav1.ListOptions{LabelSelector: deployer.PartOfLabel + "=" + s.partOf})
		if err != nil {
			return nil, err
		}
		byName := make(map[string]*unstructured.Unstructured, len(list.Items))
		for i := range list.Items {
			byName[list.Items[i].GetName()] = &list.Items[i]
		}
		return byName, nil
	})
	byName, ok := v.(map[string]*unstructured.Unstructured)
	if err != nil || !ok {
		return nil, false
	}
	live = byName[ref.Name]
	return live, live != nil
}
