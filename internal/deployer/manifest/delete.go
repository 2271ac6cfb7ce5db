package manifest

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// defaultDeletionGroups delete namespaced objects first, then
// cluster-scoped ones, then CRDs, so that controllers can still clean up
// and custom resources go before their definitions.
var defaultDeletionGroups = []DeletionGroup{
	{PredefinedResourceGroup: &PredefinedResourceGroup{Type: GroupNamespaced}},
	{PredefinedResourceGroup: &PredefinedResourceGroup{Type: GroupClusterScoped}},
	{PredefinedResourceGroup: &PredefinedResourceGroup{Type: GroupCRDs}},
}

// Delete removes the managed resources group by group, waiting until each
// group is gone. Objects with policy keep or ignore stay, and so does
// every object this item does not own (owns). It returns the managed
// resources that still exist. For an item rebuilt from the inventory the
// deletion groups' deleteAllResources is not followed: that
// configuration came from the inventory too.
func (s *Session) Delete(ctx context.Context, managed []ManagedResource, groups []DeletionGroup) ([]ManagedResource, error) {
	if s.rebuilt {
		groups = withoutDeleteAll(groups)
	}
	status := &lockedStatus{set: newStatusSet(managed)}
	err := s.deleteManaged(ctx, managed, groups, status)
	return status.list(), err
}

func (s *Session) deleteManaged(ctx context.Context, managed []ManagedResource, groups []DeletionGroup, status *lockedStatus) error {
	if len(groups) == 0 {
		groups = defaultDeletionGroups
	}
	remaining := []ManagedResource{}
	for _, r := range managed {
		switch r.Policy {
		case PolicyKeep, PolicyIgnore:
			status.remove(r.Resource) // forgotten, never deleted
		default:
			remaining = append(remaining, r)
		}
	}
	for _, g := range groups {
		if c := g.CustomResourceGroup; c != nil && c.TargetName != nil {
			if err := s.deleteElsewhere(ctx, g); err != nil {
				return err
			}
			continue
		}
		var members []ManagedResource
		var rest []ManagedResource
		for _, r := range remaining {
			in, err := s.inGroup(r.Resource, g)
			if err != nil {
				return err
			}
			if in {
				members = append(members, r)
			} else {
				rest = append(rest, r)
			}
		}
		remaining = rest
		if g.CustomResourceGroup != nil && g.CustomResourceGroup.DeleteAllResources {
			extra, err := s.listAll(ctx, g.CustomResourceGroup.Resources)
			if err != nil {
				return err
			}
			members = append(members, extra...)
		}
		if err := s.deleteGroup(ctx, members, g, status); err != nil {
			return err
		}
	}
	return nil
}

// deleteElsewhere runs a custom group that names another target: the
// item manages nothing there, so the group deletes every object of its
// types on that cluster (deleteAllResources, which validation requires),
// with the session's ownership rules; the item's own objects are left for
// the groups that follow. A record rebuilt from the inventory follows no
// deleteAllResources (Delete cleared it), so then nothing is deleted there.
func (s *Session) deleteElsewhere(ctx context.Context, g DeletionGroup) error {
	c := *g.CustomResourceGroup
	if !c.DeleteAllResources {
		return nil
	}
	name := *c.TargetName
	other, err := s.on(&name)
	if err != nil {
		return err
	}
	c.TargetName = nil
	g = DeletionGroup{CustomResourceGroup: &c}
	members, err := other.listAll(ctx, c.Resources)
	if err != nil {
		return fmt.Errorf("target %q: %w", name, err)
	}
	return other.deleteGroup(ctx, members, g, &lockedStatus{set: newStatusSet(nil)})
}

func (s *Session) inGroup(ref ObjectRef, g DeletionGroup) (bool, error) {
	if p := g.PredefinedResourceGroup; p != nil {
		crd := ref.Kind == "CustomResourceDefinition"
		switch p.Type {
		case GroupCRDs:
			return crd, nil
		case GroupEmpty:
			return false, nil
		}
		if crd {
			return false, nil
		}
		_, m, err := s.resourceFor(ref)
		if err != nil {
			// The kind is gone (its CRD was deleted): so is the object.
			return p.Type == GroupNamespaced && ref.Namespace != "", nil
		}
		return (p.Type == GroupNamespaced) == m.Namespaced, nil
	}
	for _, rt := range g.CustomResourceGroup.Resources {
		if rt.APIVersion == ref.APIVersion && rt.Kind == ref.Kind &&
			(len(rt.Names) == 0 || slices.Contains(rt.Names, ref.Name)) &&
			(len(rt.Namespaces) == 0 || slices.Contains(rt.Namespaces, ref.Namespace)) {
			return true, nil
		}
	}
	return false, nil
}

// listAll returns every object of the given types, managed or not
// (customResourceGroup.deleteAllResources).
func (s *Session) listAll(ctx context.Context, types []ResourceType) ([]ManagedResource, error) {
	var out []ManagedResource
	for _, rt := range types {
		ref := ObjectRef{APIVersion: rt.APIVersion, Kind: rt.Kind}
		_, m, err := s.resourceFor(ref)
		if err != nil {
			return nil, err
		}
		list, err := s.clients.Dynamic.Resource(m.GVR).List(ctx, metav1.ListOptions{})
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", rt.Kind, err)
		}
		for i := range list.Items {
			r := deployer.RefOf(list.Items[i].Object)
			if (len(rt.Names) == 0 || slices.Contains(rt.Names, r.Name)) && (len(rt.Namespaces) == 0 || slices.Contains(rt.Namespaces, r.Namespace)) {
				out = append(out, ManagedResource{Resource: r, Policy: PolicyManage, anyOwner: true})
			}
		}
	}
	return out, nil
}

func forceDelete(g DeletionGroup) bool {
	if g.PredefinedResourceGroup != nil {
		return g.PredefinedResourceGroup.ForceDelete
	}
	return g.CustomResourceGroup != nil && g.CustomResourceGroup.ForceDelete
}

// deleteGroup runs the delete hooks and deletes every member, then waits
// until those that may linger are gone. An object that had no finalizers
// when its DELETE was accepted is gone at that moment and costs no wait;
// the rest (finalizers, graceful deletion) are followed with watches.
func (s *Session) deleteGroup(ctx context.Context, members []ManagedResource, g DeletionGroup, status *lockedStatus) error {
	if len(members) == 0 {
		return nil
	}
	lingering := make([]ObjectRef, len(members))
	err := parallelEach(ctx, len(members), func(ctx context.Context, i int) error {
		r := members[i]
		ref, err := s.deleteOne(ctx, r, forceDelete(g))
		switch {
		case err != nil:
			return err
		case ref == nil:
			status.remove(r.Resource)
		default:
			lingering[i] = *ref
		}
		return nil
	})
	if err != nil {
		return err
	}
	var pending []ObjectRef
	for _, ref := range lingering {
		if ref.Name != "" {
			pending = append(pending, ref)
		}
	}
	if len(pending) == 0 {
		return nil
	}
	return s.await(ctx, "waiting for deleted objects to disappear", selection{refs: pending}, goneCheck(&pending, status.remove))
}

// WaitGone waits until none of objs exists any more (or exists under
// another UID than recorded): one read each, then watches for the rest.
// The Helm deployer uses it after an uninstall.
func (s *Session) WaitGone(ctx context.Context, objs []*Desired) error {
	if _, err := s.resolve(objs); err != nil {
		return err
	}
	pending := make([]ObjectRef, 0, len(objs))
	for _, d := range objs {
		pending = append(pending, d.Ref())
	}
	gone := goneCheck(&pending, func(ObjectRef) {})
	why, err := gone(ctx, liveReader{s})
	if err != nil || why == "" {
		return err
	}
	return s.await(ctx, "waiting for deleted objects to disappear", selection{refs: pending}, gone)
}

// goneCheck reports the first of *pending that still exists; those found
// gone are dropped from it and passed to onGone.
func goneCheck(pending *[]ObjectRef, onGone func(ObjectRef)) check {
	return func(ctx context.Context, r reader) (string, error) {
		for len(*pending) > 0 {
			ref := (*pending)[0]
			live, err := r.get(ctx, ref)
			if err != nil && !meta.IsNoMatchError(err) {
				return "", err
			}
			// Present under another UID: recreated by someone else.
			if err == nil && live != nil && (ref.UID == "" || string(live.GetUID()) == ref.UID) {
				return ref.String() + " still exists", nil
			}
			onGone(ref)
			*pending = (*pending)[1:]
		}
		return "", nil
	}
}

// deleteOne deletes r unless it is no longer this item's. It returns the
// object to wait for, nil when nothing remains to wait for. The object's
// metadata, all the decision reads, is taken from the job's shared list
// of the installation's members when there is one (a destroy): the
// DELETE's preconditions make acting on that read exactly as safe as on a
// fresh one, and a conflict reads it again and decides anew.
func (s *Session) deleteOne(ctx context.Context, r ManagedResource, force bool) (*ObjectRef, error) {
	client, m, err := s.resourceFor(r.Resource)
	if meta.IsNoMatchError(err) {
		return nil, nil // the kind no longer exists, neither does the object
	}
	if err != nil {
		return nil, err
	}
	var live *unstructured.Unstructured
	members, shared := s.sharedMetadata(ctx, m, r.Resource.Namespace)
	if md := members[r.Resource.Name]; md != nil {
		live = asLive(r.Resource, md)
	} else {
		shared = false
	}
	if !shared {
		if live, err = (liveReader{s}).get(ctx, r.Resource); err != nil || live == nil {
			return nil, err
		}
	}
	ref, err := s.deleteLive(ctx, client, r, live, force, true)
	if apierrors.IsConflict(err) && shared {
		// The shared read was older than the object: read it now.
		if live, err = (liveReader{s}).get(ctx, r.Resource); err != nil || live == nil {
			return nil, err
		}
		ref, err = s.deleteLive(ctx, client, r, live, force, true)
	}
	if apierrors.IsConflict(err) {
		// Changed since it was read (a controller wrote its status, or
		// added a finalizer): delete whatever version it is now, and wait.
		return s.deleteLive(ctx, client, r, live, force, false)
	}
	return ref, err
}

// deleteLive deletes r, whose live object is live, unless it is no longer
// this item's. With exact, the DELETE acts only on live's resourceVersion
// (a Conflict error says it changed), so if that had no finalizers the
// object is gone when the call returns; without, it deletes any version
// of live's UID and always waits.
func (s *Session) deleteLive(ctx context.Context, client dynamic.ResourceInterface, r ManagedResource, live *unstructured.Unstructured, force, exact bool) (*ObjectRef, error) {
	ref := r.Resource
	if !s.owns(live, r) {
		return nil, nil // not (or no longer) this item's: never deleted
	}
	if exact {
		for _, patch := range deletePatches(r, force) {
			patched, err := client.Patch(ctx, ref.Name, types.MergePatchType, patch, metav1.PatchOptions{FieldManager: s.manager + "/delete"})
			if apierrors.IsNotFound(err) {
				return nil, nil
			}
			if err != nil {
				return nil, fmt.Errorf("%s: patch before delete: %w", ref, err)
			}
			live = patched
		}
	}
	ref.UID = string(live.GetUID())
	uid, version := live.GetUID(), live.GetResourceVersion()
	propagation := metav1.DeletePropagationBackground
	opts := metav1.DeleteOptions{PropagationPolicy: &propagation, Preconditions: &metav1.Preconditions{UID: &uid}}
	if exact {
		opts.Preconditions.ResourceVersion = &version
	}
	err := client.Delete(ctx, ref.Name, opts)
	switch {
	case apierrors.IsNotFound(err):
		return nil, nil
	case apierrors.IsConflict(err) && exact:
		return nil, err // the caller reads again or deletes without the version
	case err != nil:
		return nil, fmt.Errorf("%s: %w", ref, err)
	case !exact || len(live.GetFinalizers()) > 0 || deletedGracefully(ref):
		return &ref, nil
	}
	return nil, nil
}

// deletedGracefully reports whether the API server keeps objects of ref's
// kind for a while after an accepted DELETE even without finalizers: pods
// (their grace period), namespaces and CRDs (their contents go first; the
// finalizer is added by the DELETE itself).
func deletedGracefully(ref ObjectRef) bool {
	switch {
	case ref.APIVersion == "v1":
		return ref.Kind == "Pod" || ref.Kind == "Namespace"
	case strings.HasPrefix(ref.APIVersion, "apiextensions.k8s.io/"):
		return ref.Kind == "CustomResourceDefinition"
	}
	return false
}

// deletePatches are the merge patches to send before deleting r.
func deletePatches(r ManagedResource, force bool) [][]byte {
	var out [][]byte
	if len(r.AnnotateBeforeDelete) > 0 {
		b, _ := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": r.AnnotateBeforeDelete}})
		out = append(out, b)
	}
	if len(r.PatchBeforeDelete) > 0 {
		out = append(out, r.PatchBeforeDelete)
	}
	if force {
		out = append(out, []byte(`{"metadata":{"finalizers":null}}`))
	}
	return out
}

// ownedUnrecorded returns the configured objects that prev does not record
// but that exist with this item's owner label.
func (s *Session) ownedUnrecorded(ctx context.Context, configured []*Desired, prev []ManagedResource) ([]ManagedResource, error) {
	recorded := newStatusSet(prev)
	var out []ManagedResource
	for _, d := range configured {
		if d.Spec.Policy == PolicyKeep || d.Spec.Policy == PolicyIgnore {
			continue
		}
		m, err := s.mappingFor(d.Object.GroupVersionKind())
		if err != nil {
			continue // the kind is not served, so no such object exists
		}
		if m.Namespaced && d.Object.GetNamespace() == "" {
			d.Object.SetNamespace(s.namespace)
		}
		ref := d.Ref()
		if _, ok := recorded[keyOf(ref)]; ok {
			continue
		}
		live, err := s.client(m, ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", ref, err)
		}
		if live.GetLabels()[deployer.OwnerLabel] == s.owner && !s.adoptedElsewhere(live) {
			ref.UID = string(live.GetUID())
			out = append(out, ManagedResource{Resource: ref, Policy: d.Spec.Policy, AnnotateBeforeDelete: d.Spec.AnnotateBeforeDelete, PatchBeforeDelete: d.Spec.PatchBeforeDelete})
		}
	}
	return out, nil
}

// owns reports whether live, which r records, is this item's to delete:
// no newer instance has taken it over, and it carries the item's owner
// label — whatever the policy: a recorded resource is a claim, the label
// is the proof — or it is the very object adopted from Landscaper and
// not applied since (adoptedFromLandscaper; never for a status rebuilt
// from the inventory, whose UIDs anyone who may write there could have
// copied), or the item's deleteAllResources chose it.
func (s *Session) owns(live *unstructured.Unstructured, r ManagedResource) bool {
	if s.adoptedElsewhere(live) {
		return false
	}
	return r.anyOwner || live.GetLabels()[deployer.OwnerLabel] == s.owner || (!s.rebuilt && adoptedFromLandscaper(live, r))
}

// withoutDeleteAll is groups with no custom group deleting all resources
// of its types.
func withoutDeleteAll(groups []DeletionGroup) []DeletionGroup {
	out := make([]DeletionGroup, 0, len(groups))
	for _, g := range groups {
		if c := g.CustomResourceGroup; c != nil && c.DeleteAllResources {
			copied := *c
			copied.DeleteAllResources = false
			g.CustomResourceGroup = &copied
		}
		out = append(out, g)
	}
	return out
}
