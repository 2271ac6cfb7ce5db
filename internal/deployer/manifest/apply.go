package manifest

import (
	"context"
	"fmt"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
	utiljson "k8s.io/apimachinery/pkg/util/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Plan is what one Apply of a session must achieve.
type Plan struct {
	Objects   []*Desired
	Strategy  UpdateStrategy
	Readiness ReadinessCheckConfig
	Exports   []Export
	// DeletionGroups order the deletion of objects dropped from the plan.
	DeletionGroups []DeletionGroup
	// DeleteTimeout bounds that deletion; 0 means ctx alone bounds it.
	DeleteTimeout time.Duration
}

// Apply makes the cluster hold plan.Objects, deletes what prev records but
// the plan no longer wants, waits for readiness and reads the exports. It
// returns the managed resources that exist afterwards, also on error.
func (s *Session) Apply(ctx context.Context, plan Plan, prev []ManagedResource) ([]ManagedResource, map[string]any, error) {
	status := &lockedStatus{set: newStatusSet(prev)}
	mappings, err := s.resolve(plan.Objects)
	if err != nil {
		return prev, nil, err
	}
	wanted := map[key]bool{}
	var crds, cluster, namespaced []*Desired
	for _, d := range plan.Objects {
		k := keyOf(d.Ref())
		if wanted[k] {
			return prev, nil, failure.Terminalf("InvalidConfig", "%s is listed twice", d.Ref())
		}
		wanted[k] = true
		s.stamp(d)
		d.Hash = hashObject(d.Object, d.Spec, s.writeOnly)
		switch {
		case d.Spec.Policy == PolicyIgnore:
			status.remove(d.Ref()) // ignored from now on: never updated, never deleted
		case isCRD(d.Object):
			crds = append(crds, d)
		case !mappings[d].Namespaced:
			cluster = append(cluster, d)
		default:
			namespaced = append(namespaced, d)
		}
	}
	written := &writtenSet{}
	apply := func(ctx context.Context, d *Desired) error {
		return s.applyObject(ctx, d, mappings[d], plan.Strategy, status, written)
	}
	if err := parallel(ctx, crds, apply); err != nil {
		return status.list(), nil, err
	}
	if err := s.waitEstablished(ctx, crds); err != nil {
		return status.list(), nil, err
	}
	for _, group := range [][]*Desired{cluster, namespaced} {
		if err := parallel(ctx, group, apply); err != nil {
			return status.list(), nil, err
		}
	}

	var dropped []ManagedResource
	for k, r := range status.snapshot() {
		if !wanted[k] {
			dropped = append(dropped, r)
		}
	}
	deleteCtx, cancel := ctx, context.CancelFunc(func() {})
	if plan.DeleteTimeout > 0 {
		deleteCtx, cancel = context.WithTimeout(ctx, plan.DeleteTimeout)
	}
	err = s.deleteManaged(deleteCtx, dropped, plan.DeletionGroups, status)
	cancel()
	if err != nil {
		return status.list(), nil, fmt.Errorf("deleting objects no longer in the configuration: %w", err)
	}

	var managed []*Desired
	for _, d := range plan.Objects {
		if _, ok := status.get(keyOf(d.Ref())); ok && d.Spec.Policy != PolicyIgnore {
			managed = append(managed, d)
		}
	}
	if err := s.WaitReady(ctx, managed, plan.Readiness, status.seenSet()); err != nil {
		return status.list(), nil, err
	}
	for _, d := range written.list() {
		if len(d.Spec.PatchAfterDeployment) == 0 {
			continue
		}
		_, err := s.client(mappings[d], d.Object.GetNamespace()).Patch(ctx, d.Object.GetName(), types.MergePatchType, d.Spec.PatchAfterDeployment, metav1.PatchOptions{FieldManager: s.manager + "/patch"})
		if err != nil {
			return status.list(), nil, fmt.Errorf("%s: patchAfterDeployment: %w", d.Ref(), err)
		}
	}
	exports, err := s.ReadExports(ctx, plan.Exports)
	if err != nil {
		return status.list(), nil, err
	}
	return status.list(), exports, nil
}

// applyObject brings one object to its manifest. Known objects are read
// first, so an unchanged object costs one GET and no write; new objects
// are created by a server-side apply without force (one request), which
// fails with a conflict on the owner label if another item owns the
// object, and only then is it read to decide.
func (s *Session) applyObject(ctx context.Context, d *Desired, m mapping, strategy UpdateStrategy, status *lockedStatus, written *writtenSet) error {
	ref := d.Ref()
	client := s.client(m, ref.Namespace)
	prev, known := status.get(keyOf(ref))
	var live *unstructured.Unstructured
	// fallback must see an existing object before it writes: one it did
	// not record and that does not carry its label is left alone.
	if known || strategy == UpdateStrategyMerge || d.Spec.Policy == PolicyFallback {
		var err error
		if live, err = client.Get(ctx, ref.Name, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			live = nil
		} else if err != nil {
			return fmt.Errorf("%s: %w", ref, err)
		}
	}
	force := live != nil
	if live != nil {
		if skip, err := s.checkOwner(d, live, known); skip || err != nil {
			return err
		}
		want := expected(d)
		if strategy == UpdateStrategyMerge {
			want = keepExisting(want, live.Object) // what the write below would make of it
		}
		upToDate := known && prev.Hash == d.Hash && !differs(want, live.Object)
		if upToDate || d.Spec.Policy == PolicyImmutable {
			r := s.record(d, live.GetUID(), prev.Hash)
			if s.driftOf(r, d, live, strategy) == "" {
				r.ResourceVersion = recordedVersion(live.GetResourceVersion())
			}
			status.put(r)
			status.markSeen(d)
			return nil
		}
	}
	body := d.Object
	if strategy == UpdateStrategyMerge && live != nil {
		body = &unstructured.Unstructured{Object: keepExisting(d.Object.Object, live.Object)}
	}
	result, err := s.applyMetadata(ctx, m, ref, body, force)
	if apierrors.IsConflict(err) && !force {
		if live, err = client.Get(ctx, ref.Name, metav1.GetOptions{}); err != nil {
			return fmt.Errorf("%s: %w", ref, err)
		}
		if skip, err := s.checkOwner(d, live, known); skip || err != nil {
			return err
		}
		result, err = s.applyMetadata(ctx, m, ref, body, true)
	}
	if err != nil {
		return classifyWrite(ref, err)
	}
	r := s.record(d, result.UID, d.Hash)
	if len(d.Spec.PatchAfterDeployment) == 0 {
		// What this write made is what the manifest wants; a patch after
		// deployment moves the object on (it is then read whole).
		r.ResourceVersion = recordedVersion(result.ResourceVersion)
	}
	status.put(r)
	status.markSeen(d)
	written.add(d)
	return nil
}

// checkOwner decides about an existing object. Under policy fallback, as
// in Landscaper, the item touches only an object that carries its own
// label (or one it recorded, such as an object adopted from Landscaper,
// unless that record was rebuilt from the inventory): anything else — an
// object of another item or one nobody labelled — is left alone. Under
// the other policies an object another deploy item's label claims is an
// error, so that no item silently takes over another's object.
func (s *Session) checkOwner(d *Desired, live *unstructured.Unstructured, recorded bool) (skip bool, err error) {
	owner := live.GetLabels()[deployer.OwnerLabel]
	if d.Spec.Policy == PolicyFallback {
		return owner != s.owner && (!recorded || s.rebuilt), nil
	}
	if owner == "" || owner == s.owner {
		return false, nil
	}
	return false, failure.Terminalf("OwnedByOtherItem", "%s already exists and belongs to deploy item %q; use policy fallback to leave it alone",
		d.Ref(), live.GetAnnotations()[deployer.OwnerAnnotation])
}

// applyMetadata is the server-side apply of body as ref; only the UID of
// the response is used, so only the metadata is asked for
// (target.Clients.ApplyMetadata).
func (s *Session) applyMetadata(ctx context.Context, m mapping, ref ObjectRef, body *unstructured.Unstructured, force bool) (*metav1.PartialObjectMetadata, error) {
	namespace := ""
	if m.Namespaced {
		namespace = ref.Namespace
	}
	return s.clients.ApplyMetadata(ctx, m.GVR, namespace, ref.Name, body, metav1.ApplyOptions{FieldManager: s.manager, Force: force})
}

func (s *Session) record(d *Desired, uid types.UID, hash string) ManagedResource {
	ref := d.Ref()
	ref.UID = string(uid)
	return ManagedResource{Resource: ref, Policy: d.Spec.Policy, AnnotateBeforeDelete: d.Spec.AnnotateBeforeDelete, PatchBeforeDelete: d.Spec.PatchBeforeDelete, Hash: hash}
}

// expected is the object as it should look in the cluster: the manifest
// with patchAfterDeployment applied.
func expected(d *Desired) map[string]any {
	if len(d.Spec.PatchAfterDeployment) == 0 {
		return d.Object.Object
	}
	var patch map[string]any
	if utiljson.Unmarshal(d.Spec.PatchAfterDeployment, &patch) != nil {
		return d.Object.Object
	}
	return mergePatch(d.Object.Object, patch)
}

// mergePatch applies a JSON merge patch (RFC 7386) to a copy of obj.
func mergePatch(obj, patch map[string]any) map[string]any {
	out := make(map[string]any, len(obj))
	for k, v := range obj {
		out[k] = v
	}
	for k, pv := range patch {
		if pv == nil {
			delete(out, k)
			continue
		}
		pm, pIsMap := pv.(map[string]any)
		om, oIsMap := out[k].(map[string]any)
		if pIsMap && oIsMap {
			out[k] = mergePatch(om, pm)
		} else {
			out[k] = pv
		}
	}
	return out
}

// classifyWrite marks rejections of the manifest itself (invalid, forbidden
// field change) terminal; everything else may heal.
func classifyWrite(ref ObjectRef, err error) error {
	wrapped := fmt.Errorf("%s: %w", ref, err)
	if apierrors.IsInvalid(err) || apierrors.IsBadRequest(err) || apierrors.IsMethodNotSupported(err) {
		return failure.NewTerminal("InvalidManifest", wrapped)
	}
	return wrapped
}

type lockedStatus struct {
	mu   sync.Mutex
	set  statusSet
	seen map[*Desired]bool
}

// markSeen notes that d exists, as just read or written.
func (l *lockedStatus) markSeen(d *Desired) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[*Desired]bool{}
	}
	l.seen[d] = true
}

func (l *lockedStatus) seenSet() map[*Desired]bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[*Desired]bool, len(l.seen))
	for d := range l.seen {
		out[d] = true
	}
	return out
}

func (l *lockedStatus) get(k key) (ManagedResource, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	r, ok := l.set[k]
	return r, ok
}

func (l *lockedStatus) put(r ManagedResource) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.set[keyOf(r.Resource)] = r
}

func (l *lockedStatus) remove(r ObjectRef) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.set, keyOf(r))
}

func (l *lockedStatus) snapshot() statusSet {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := statusSet{}
	for k, v := range l.set {
		out[k] = v
	}
	return out
}

func (l *lockedStatus) list() []ManagedResource {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.set.list()
}

type writtenSet struct {
	mu   sync.Mutex
	objs []*Desired
}

func (w *writtenSet) add(d *Desired) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.objs = append(w.objs, d)
}

func (w *writtenSet) list() []*Desired {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]*Desired(nil), w.objs...)
}
