package landscaperrecording

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
)

// ReplayOptions say where a recording goes.
type ReplayOptions struct {
	// HostNamespace and TargetNamespace replace the recording's; both
	// must exist.
	HostNamespace, TargetNamespace string
	// Kubeconfig replaces KubeconfigPlaceholder: the kubeconfig of the
	// cluster the recording is replayed into.
	Kubeconfig string
	// Registry replaces the recording's registry host ("" keeps it).
	Registry string
}

// Replayed is a recording put into a cluster.
type Replayed struct {
	// Recording is the recording as replayed: namespaces, kubeconfig,
	// registry and UIDs replaced, objects as the API server returned them.
	*Recording
	// UIDs maps each recorded UID to the UID of its replayed object.
	UIDs map[string]string
	// Skipped are recorded objects of kinds the cluster does not serve
	// (Landscaper's bookkeeping beyond the kinds of landscaperfixture's
	// CRDs), as "Kind name".
	Skipped []string

	opts   ReplayOptions
	client dynamic.Interface
	mapper meta.RESTMapper
}

// Replay puts rec into the cluster config points at: Landscaper's CRDs
// (landscaperfixture's), then the target namespace's objects, then the
// host objects owners first, each host object's status through the status
// subresource. Every string of the recording — plain fields, Secret data,
// Helm release records, compressed deploy item templates — has the
// recorded namespaces, registry and UIDs replaced by the new ones and the
// placeholder by the kubeconfig, so labels, annotations, owner references
// and provider status refer to the replayed objects. It returns once the
// deployed workloads are ready, as Landscaper's deploy items only succeed
// then.
func Replay(ctx context.Context, config *rest.Config, rec *Recording, opts ReplayOptions) (*Replayed, error) {
	if opts.HostNamespace == "" || opts.TargetNamespace == "" || opts.Kubeconfig == "" {
		return nil, fmt.Errorf("replaying needs both namespaces and a kubeconfig")
	}
	config = rest.CopyConfig(config)
	config.WarningHandler = rest.NoWarnings{} // the API server advises against Landscaper's finalizer name on every write
	// No client-side throttling (client-go's default is 5 requests a
	// second): the creates in flight are bounded by maxParallelCreates.
	config.QPS, config.Burst = -1, 0
	client, err := dynamic.NewForConfig(config)
	if err != nil {
		return nil, err
	}
	if err := landscaperfixture.EnsureCRDs(ctx, client); err != nil {
		return nil, err
	}
	disc, err := discovery.NewDiscoveryClientForConfig(config)
	if err != nil {
		return nil, err
	}
	rewritten, err := rec.Rewrite(opts)
	if err != nil {
		return nil, err
	}
	r := &Replayed{Recording: rewritten, UIDs: map[string]string{}, opts: opts, client: client,
		mapper: restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))}
	if r.Target, err = r.createAll(ctx, r.Target); err != nil {
		return r, err
	}
	var host []*unstructured.Unstructured
	for _, generation := range generations(r.Host) {
		created, err := r.createAll(ctx, generation)
		if err != nil {
			return r, err
		}
		host = append(host, created...)
	}
	sortObjects(host)
	r.Host = host
	if err := r.checkReferences(); err != nil {
		return r, err
	}
	return r, waitReady(ctx, client, r.Target)
}

// Rewrite returns a copy of the recording in which every string names
// what opts name instead of what the recording's cluster had: the
// namespaces, the registry, the kubeconfig for the placeholder (each only
// when given); DataObjects keep their hash annotation true to their data.
// For tests that read a recording without a cluster (a fake client), or
// under other names.
func (r *Recording) Rewrite(opts ReplayOptions) (*Recording, error) {
	out := r.DeepCopy()
	rename := renamer(r.Meta, opts)
	for _, o := range out.Objects() {
		mapObject := mapStrings
		if o.GetAPIVersion() == APIVersion && o.GetKind() == "DataObject" {
			mapObject = mapDataObject
		}
		if err := mapObject(o, rename); err != nil {
			return nil, err
		}
	}
	if opts.HostNamespace != "" {
		out.Meta.HostNamespace = opts.HostNamespace
	}
	if opts.TargetNamespace != "" {
		out.Meta.TargetNamespace = opts.TargetNamespace
	}
	if opts.Registry != "" && r.Meta.Registry != "" {
		out.Meta.Registry = opts.Registry
	}
	return out, nil
}

// renamer replaces what names the recording's cluster by what opts name.
func renamer(recorded Meta, opts ReplayOptions) func(string) string {
	var pairs []string
	add := func(old, now string) {
		if old != "" && now != "" {
			pairs = append(pairs, old, now)
		}
	}
	add(recorded.HostNamespace, opts.HostNamespace)
	add(recorded.TargetNamespace, opts.TargetNamespace)
	add(KubeconfigPlaceholder, opts.Kubeconfig)
	add(recorded.Registry, opts.Registry)
	return strings.NewReplacer(pairs...).Replace
}

// uidMapper gives references the UIDs of the objects replayed so far.
func (r *Replayed) uidMapper() func(string) string {
	pairs := make([]string, 0, 2*len(r.UIDs))
	for old, now := range r.UIDs {
		pairs = append(pairs, old, now)
	}
	return strings.NewReplacer(pairs...).Replace
}

// maxParallelCreates bounds the creates in flight.
const maxParallelCreates = 8

// createAll creates objs in parallel and returns them as created;
// objects of kinds the cluster does not serve are skipped.
func (r *Replayed) createAll(ctx context.Context, objs []*unstructured.Unstructured) ([]*unstructured.Unstructured, error) {
	mapUIDs := r.uidMapper()
	created := make([]*unstructured.Unstructured, len(objs))
	errs := make([]error, len(objs))
	slots := make(chan struct{}, maxParallelCreates)
	var wg sync.WaitGroup
	var mu sync.Mutex
	for i, o := range objs {
		res, err := r.resource(o)
		if err != nil {
			if meta.IsNoMatchError(err) {
				r.Skipped = append(r.Skipped, o.GetKind()+" "+o.GetName())
				continue
			}
			return nil, err
		}
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			recordedUID := string(o.GetUID())
			c, err := r.createOne(ctx, res, o, mapUIDs)
			if err != nil {
				errs[i] = fmt.Errorf("replaying %s %s: %w", o.GetKind(), o.GetName(), err)
				return
			}
			created[i] = c
			mu.Lock()
			r.UIDs[recordedUID] = string(c.GetUID())
			mu.Unlock()
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	out := created[:0]
	for _, c := range created {
		if c != nil {
			out = append(out, c)
		}
	}
	return out, nil
}

func (r *Replayed) resource(o *unstructured.Unstructured) (dynamic.ResourceInterface, error) {
	gvk := o.GroupVersionKind()
	m, err := r.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		return nil, err
	}
	return r.client.Resource(m.Resource).Namespace(o.GetNamespace()), nil
}

// createOne creates one object with the UIDs of the objects it refers
// to, as its recorded field manager, then writes its status if the
// create left it out (a status subresource).
func (r *Replayed) createOne(ctx context.Context, res dynamic.ResourceInterface, recorded *unstructured.Unstructured,
	mapUIDs func(string) string) (*unstructured.Unstructured, error) {
	o := recorded.DeepCopy()
	if err := mapStrings(o, mapUIDs); err != nil {
		return nil, err
	}
	manager := fieldManager(o)
	generation := o.GetGeneration()
	for _, f := range []string{"uid", "generation", "managedFields", "resourceVersion", "creationTimestamp"} {
		unstructured.RemoveNestedField(o.Object, "metadata", f)
	}
	if o.GetKind() == "Service" && o.GetAPIVersion() == "v1" {
		freeServiceIPs(o)
	}
	status, hasStatus := o.Object["status"].(map[string]any)
	created, err := res.Create(ctx, o, metav1.CreateOptions{FieldManager: manager})
	if err != nil {
		return nil, err
	}
	if !hasStatus || reflect.DeepEqual(created.Object["status"], any(status)) {
		return created, nil
	}
	// A status that observed the recorded generation observes the new one.
	if g, ok := status["observedGeneration"].(int64); ok && g == generation {
		status["observedGeneration"] = created.GetGeneration()
	}
	created.Object["status"] = status
	return res.UpdateStatus(ctx, created, metav1.UpdateOptions{FieldManager: manager})
}

// fieldManager is the manager that created the object as recorded (the
// first that updated it, not through a subresource), so that the replayed
// object is owned by the same name.
func fieldManager(o *unstructured.Unstructured) string {
	for _, mf := range o.GetManagedFields() {
		if mf.Operation == metav1.ManagedFieldsOperationUpdate && mf.Subresource == "" && mf.Manager != "" {
			return mf.Manager
		}
	}
	return "landscaperrecording"
}

// freeServiceIPs drops the cluster IPs the recording's cluster allocated
// (this one allocates its own); a headless Service keeps "None".
func freeServiceIPs(o *unstructured.Unstructured) {
	if ip, _, _ := unstructured.NestedString(o.Object, "spec", "clusterIP"); ip != "None" {
		unstructured.RemoveNestedField(o.Object, "spec", "clusterIP")
		unstructured.RemoveNestedField(o.Object, "spec", "clusterIPs")
	}
}

// checkReferences fails if a replayed object still holds a recorded UID
// of a replayed object: a reference the replay missed.
func (r *Replayed) checkReferences() error {
	var found []string
	for _, o := range r.Objects() {
		own := string(o.GetUID())
		check := func(s string) string {
			for old := range r.UIDs {
				if strings.Contains(s, old) && r.UIDs[old] != own {
					found = append(found, fmt.Sprintf("%s %s refers to recorded UID %s", o.GetKind(), o.GetName(), old))
				}
			}
			return s
		}
		if err := mapStrings(o.DeepCopy(), check); err != nil {
			return err
		}
	}
	if len(found) > 0 {
		sort.Strings(found)
		return fmt.Errorf("replay left references to recorded objects: %s", strings.Join(found, "; "))
	}
	return nil
}

// generations groups objects: first those without owners among objs,
// then those whose owners are all in earlier groups, and so on. An owner
// that is not in objs does not hold an object back.
func generations(objs []*unstructured.Unstructured) [][]*unstructured.Unstructured {
	present := map[string]bool{}
	for _, o := range objs {
		present[string(o.GetUID())] = true
	}
	placed := map[string]bool{}
	var out [][]*unstructured.Unstructured
	for left := objs; len(left) > 0; {
		var next, rest []*unstructured.Unstructured
		for _, o := range left {
			ready := true
			for _, ref := range o.GetOwnerReferences() {
				if present[string(ref.UID)] && !placed[string(ref.UID)] {
					ready = false
				}
			}
			if ready {
				next = append(next, o)
			} else {
				rest = append(rest, o)
			}
		}
		if len(next) == 0 {
			// Owners that own each other: create the rest at once.
			next, rest = rest, nil
		}
		for _, o := range next {
			placed[string(o.GetUID())] = true
		}
		out = append(out, next)
		left = rest
	}
	return out
}
