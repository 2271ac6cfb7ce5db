package landscaperrecording

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
)

// workloads are the kinds whose readiness Landscaper's deployers wait
// for, with the check.
var workloads = map[string]struct {
	resource schema.GroupVersionResource
	ready    func(*unstructured.Unstructured) bool
}{
	"Deployment":  {schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, deploymentReady},
	"StatefulSet": {schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}, statefulSetReady},
}

// waitReady waits until every Deployment and StatefulSet of objs is
// ready, one watch each.
func waitReady(ctx context.Context, client dynamic.Interface, objs []*unstructured.Unstructured) error {
	for _, o := range objs {
		w, ok := workloads[o.GetKind()]
		if !ok || o.GetAPIVersion() != "apps/v1" {
			continue
		}
		if err := waitFor(ctx, client.Resource(w.resource).Namespace(o.GetNamespace()), o.GetKind(), o.GetName(), w.ready); err != nil {
			return err
		}
	}
	return nil
}

func replicas(u *unstructured.Unstructured) int64 {
	want, found, _ := unstructured.NestedInt64(u.Object, "spec", "replicas")
	if !found {
		return 1
	}
	return want
}

func observed(u *unstructured.Unstructured) bool {
	g, _, _ := unstructured.NestedInt64(u.Object, "status", "observedGeneration")
	return g >= u.GetGeneration()
}

func deploymentReady(u *unstructured.Unstructured) bool {
	available, _, _ := unstructured.NestedInt64(u.Object, "status", "availableReplicas")
	updated, _, _ := unstructured.NestedInt64(u.Object, "status", "updatedReplicas")
	return observed(u) && available >= replicas(u) && updated >= replicas(u)
}

func statefulSetReady(u *unstructured.Unstructured) bool {
	ready, _, _ := unstructured.NestedInt64(u.Object, "status", "readyReplicas")
	return observed(u) && ready >= replicas(u)
}

// waitFor reads one object and, unless it is done already, watches it
// from that version until it is.
func waitFor(ctx context.Context, res dynamic.ResourceInterface, kind, name string, done func(*unstructured.Unstructured) bool) error {
	current, err := res.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return fmt.Errorf("reading %s %s: %w", kind, name, err)
	}
	if done(current) {
		return nil
	}
	w, err := res.Watch(ctx, metav1.ListOptions{FieldSelector: fields.OneTermEqualSelector("metadata.name", name).String(),
		ResourceVersion: current.GetResourceVersion()})
	if err != nil {
		return fmt.Errorf("watching %s %s: %w", kind, name, err)
	}
	defer w.Stop()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s %s to be ready: %w", kind, name, ctx.Err())
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("the watch of %s %s ended before it was ready", kind, name)
			}
			if u, isObj := ev.Object.(*unstructured.Unstructured); isObj && ev.Type != watch.Error && done(u) {
				return nil
			}
		}
	}
}
