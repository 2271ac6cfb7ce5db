package landscaperrecording

import (
	"context"
	"errors"
	"fmt"
	"reflect"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/types"
)

// Advance moves the replayed landscape on to next, a later recording of
// the same landscape in the same cluster (one Landscaper's controllers
// moved on, e.g. "reconciled" after "installed"), as those controllers
// did: an object recorded in both (the same recorded UID) is updated to
// next's content, one only in next is created, one only in the replay is
// deleted. A test replays the first, lets the provider act, then advances
// to see what Landscaper's later work does to it.
func (r *Replayed) Advance(ctx context.Context, next *Recording) error {
	if next.Meta.Landscape != r.Meta.Landscape {
		return fmt.Errorf("advancing %s to a recording of %s", r.Meta.Landscape, next.Meta.Landscape)
	}
	next, err := next.Rewrite(r.opts)
	if err != nil {
		return err
	}
	current := map[string]*unstructured.Unstructured{} // replayed UID → object
	for _, o := range r.Objects() {
		current[string(o.GetUID())] = o
	}
	kept := map[string]bool{} // replayed UIDs next still has
	for _, o := range next.Objects() {
		kept[r.UIDs[string(o.GetUID())]] = true
	}
	// What next no longer has goes first: Landscaper recreates objects
	// under the same name (its export DataObjects and Targets).
	var gone []error
	for uid, o := range current {
		if !kept[uid] {
			gone = append(gone, r.remove(ctx, o))
			delete(current, uid)
		}
	}
	if err := errors.Join(gone...); err != nil {
		return err
	}
	advance := func(objs []*unstructured.Unstructured) ([]*unstructured.Unstructured, error) {
		var fresh, out []*unstructured.Unstructured
		for _, o := range objs {
			now, ok := r.UIDs[string(o.GetUID())]
			if !ok || current[now] == nil {
				fresh = append(fresh, o)
				continue
			}
			updated, err := r.update(ctx, current[now], o)
			if err != nil {
				return nil, err
			}
			out = append(out, updated)
		}
		created, err := r.createAll(ctx, fresh)
		return append(out, created...), err
	}
	target, err := advance(next.Target)
	if err != nil {
		return err
	}
	var host []*unstructured.Unstructured
	for _, generation := range generations(next.Host) {
		objs, err := advance(generation)
		if err != nil {
			return err
		}
		host = append(host, objs...)
	}
	sortObjects(host)
	sortObjects(target)
	r.Host, r.Target = host, target
	r.Meta.Scenario, r.Meta.Description = next.Meta.Scenario, next.Meta.Description
	if err := r.checkReferences(); err != nil {
		return err
	}
	return waitReady(ctx, r.client, r.Target)
}

// update writes next's content (its references mapped) over the
// replayed object now, then its status if that differs.
func (r *Replayed) update(ctx context.Context, now, next *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	res, err := r.resource(now)
	if err != nil {
		return nil, err
	}
	o := next.DeepCopy()
	if err := mapStrings(o, r.uidMapper()); err != nil {
		return nil, err
	}
	manager := fieldManager(o)
	generation := o.GetGeneration()
	for _, f := range []string{"generation", "managedFields", "creationTimestamp"} {
		unstructured.RemoveNestedField(o.Object, "metadata", f)
	}
	fresh, err := res.Get(ctx, now.GetName(), metav1.GetOptions{})
	if err != nil {
		return nil, fmt.Errorf("advancing %s %s: %w", now.GetKind(), now.GetName(), err)
	}
	o.SetUID(fresh.GetUID())
	o.SetResourceVersion(fresh.GetResourceVersion())
	if o.GetKind() == "Service" && o.GetAPIVersion() == "v1" {
		// The allocated IPs are immutable: keep this cluster's.
		for _, f := range []string{"clusterIP", "clusterIPs"} {
			if v, found, _ := unstructured.NestedFieldCopy(fresh.Object, "spec", f); found {
				_ = unstructured.SetNestedField(o.Object, v, "spec", f)
			}
		}
	}
	status, hasStatus := o.Object["status"].(map[string]any)
	updated, err := res.Update(ctx, o, metav1.UpdateOptions{FieldManager: manager})
	if err != nil {
		return nil, fmt.Errorf("advancing %s %s: %w", now.GetKind(), now.GetName(), err)
	}
	if !hasStatus || reflect.DeepEqual(updated.Object["status"], any(status)) {
		return updated, nil
	}
	if g, ok := status["observedGeneration"].(int64); ok && g == generation {
		status["observedGeneration"] = updated.GetGeneration()
	}
	updated.Object["status"] = status
	return res.UpdateStatus(ctx, updated, metav1.UpdateOptions{FieldManager: manager})
}

// remove deletes a replayed object next no longer has, finalizers first.
// It is gone when the call returns (no finalizer is left), so next may
// create an object of the same name at once. (Landscaper recreates only
// objects that own nothing: export DataObjects and Targets.)
func (r *Replayed) remove(ctx context.Context, o *unstructured.Unstructured) error {
	res, err := r.resource(o)
	if err != nil {
		return err
	}
	if len(o.GetFinalizers()) > 0 {
		_, err := res.Patch(ctx, o.GetName(), types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
	}
	if err := res.Delete(ctx, o.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("advancing: deleting %s %s: %w", o.GetKind(), o.GetName(), err)
	}
	return nil
}
