package manifest

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/metadata"

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
	// metadata: the members' metadata (protobuf, no contents), not the
	// whole objects.
	metadata bool
}

// sharedMember returns ref's live object from the job's shared list of
// the installation's members of ref's kind and namespace (one LIST by the
// ApplySet label answers for every deploy item of a destroy or a drift
// check). found is false when the call shares no reads, the session
// labels no ApplySet, the list failed (RBAC may grant get alone) or ref
// is not in it (never labeled, or created since): only a read by name
// tells then. The object is shared: read it, never change it.
func (s *Session) sharedMember(ctx context.Context, m mapping, ref ObjectRef) (live *unstructured.Unstructured, found bool) {
	v, ok := s.sharedList(ctx, m, ref.Namespace, false, func(ctx context.Context, selector string) (any, error) {
		list, err := s.client(m, ref.Namespace).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return nil, err
		}
		byName := make(map[string]*unstructured.Unstructured, len(list.Items))
		for i := range list.Items {
			byName[list.Items[i].GetName()] = &list.Items[i]
		}
		return byName, nil
	})
	byName, _ := v.(map[string]*unstructured.Unstructured)
	if !ok || byName == nil {
		return nil, false
	}
	live = byName[ref.Name]
	return live, live != nil
}

// sharedMetadata is sharedMember's twin for callers that need only an
// object's metadata (a destroy, the versions of a drift check): the
// members' metadata of ref's kind and namespace, by name, from one shared
// metadata list, which the API server encodes and this client decodes
// without the objects' contents. ok as sharedMember's found, for the list.
func (s *Session) sharedMetadata(ctx context.Context, m mapping, namespace string) (byName map[string]*metav1.PartialObjectMetadata, ok bool) {
	v, ok := s.sharedList(ctx, m, namespace, true, func(ctx context.Context, selector string) (any, error) {
		return listMetadata(ctx, s.metadataClient(m, namespace), selector)
	})
	byName, _ = v.(map[string]*metav1.PartialObjectMetadata)
	return byName, ok && byName != nil
}

// sharedList is the job's one read of list for the members of m's kind in
// namespace; false when the call shares no reads, the session labels no
// ApplySet or the list failed.
func (s *Session) sharedList(ctx context.Context, m mapping, namespace string, metadata bool, list func(context.Context, string) (any, error)) (any, bool) {
	if s.shared == nil || s.partOf == "" {
		return nil, false
	}
	key := membersKey{clients: s.clients, gvr: m.GVR, namespace: scope(m, namespace), partOf: s.partOf, metadata: metadata}
	v, err := s.shared.Do(ctx, key, func(ctx context.Context) (any, error) {
		return list(ctx, deployer.PartOfLabel+"="+s.partOf)
	})
	return v, err == nil
}

// scope is namespace for a namespaced kind, "" for a cluster-scoped one.
func scope(m mapping, namespace string) string {
	if m.Namespaced {
		return namespace
	}
	return ""
}

// listMetadata lists the metadata of the objects selector selects, by name.
func listMetadata(ctx context.Context, client metadata.ResourceInterface, selector string) (map[string]*metav1.PartialObjectMetadata, error) {
	list, err := client.List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return nil, err
	}
	byName := make(map[string]*metav1.PartialObjectMetadata, len(list.Items))
	for i := range list.Items {
		byName[list.Items[i].Name] = &list.Items[i]
	}
	return byName, nil
}

// metadataClient is client's twin that reads objects as their metadata.
func (s *Session) metadataClient(m mapping, namespace string) metadata.ResourceInterface {
	if m.Namespaced {
		return s.clients.Metadata.Resource(m.GVR).Namespace(namespace)
	}
	return s.clients.Metadata.Resource(m.GVR)
}

// asLive is an object's metadata as the live object the delete flow
// decides on (owns, deleteLive): only UID, version, labels, annotations
// and finalizers are read there.
func asLive(ref ObjectRef, meta *metav1.PartialObjectMetadata) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{}}
	u.SetAPIVersion(ref.APIVersion)
	u.SetKind(ref.Kind)
	u.SetName(meta.Name)
	u.SetNamespace(meta.Namespace)
	u.SetUID(meta.UID)
	u.SetResourceVersion(meta.ResourceVersion)
	u.SetLabels(meta.Labels)
	u.SetAnnotations(meta.Annotations)
	u.SetFinalizers(meta.Finalizers)
	return u
}
