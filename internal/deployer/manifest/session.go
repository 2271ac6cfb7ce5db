package manifest

import (
	"context"
	"fmt"
	"sync"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Session is the work of one deploy item against one cluster. The Helm
// deployer uses it too, for rendered charts.
type Session struct {
	clients *target.Clients
	itemID  string
	owner   string
	// instance is the owning installation instance; "" skips the checks.
	instance string
	// partOf is the ApplySet ID objects are labeled with; "" none.
	partOf string
	// rebuilt: the recorded resources come from the inventory
	// (deployer.Item.Rebuilt), so only labels decide what is ours.
	rebuilt bool
	manager string
	// ownManagers are further field managers of the item's (WithOwnManagers).
	ownManagers []string
	// namespace is given to namespaced objects that name none.
	namespace string
	// idle and shared are the call's (deployer.Item.GoIdle, SharedReads).
	idle   func() (resume func())
	shared *deployer.SharedReads
	// strategy is the item's update strategy, for Drift: under merge a
	// value changed in the cluster is kept, so it is no drift.
	strategy UpdateStrategy
	// other opens a session on another target of the item by name
	// (targetName, WithTargets); nil: none known.
	other func(name string) (*Session, error)
	// writeOnly are the item's write-only forms (deployer.Item.WriteOnly):
	// the objects' hashes in the provider status are fingerprints
	// without them; an object holding one is compared with the cluster
	// by content all the same (applyObject).
	writeOnly fingerprint.Forms

	mu        sync.Mutex
	resetOnce bool
}

// NewSession starts the work of item itemID against the cluster of c.
func NewSession(c *target.Clients, itemID string) *Session {
	return &Session{clients: c, itemID: itemID, owner: deployer.OwnerValue(itemID), manager: fieldManager(itemID), namespace: c.Namespace}
}

// WithDefaultNamespace makes namespace the namespace of namespaced objects
// that name none (the Helm release namespace), instead of the kubeconfig's.
func (s *Session) WithDefaultNamespace(namespace string) *Session {
	s.namespace = namespace
	return s
}

// WithStrategy tells Drift the item's update strategy.
func (s *Session) WithStrategy(strategy UpdateStrategy) *Session {
	s.strategy = strategy
	return s
}

// WithOwner makes the session stamp the item's instance and ApplySet on
// what it applies, and leave objects that another instance has adopted
// when it deletes; for an item whose status was rebuilt from the
// inventory, it trusts only the owner label (owns).
func (s *Session) WithOwner(item deployer.Item) *Session {
	s.instance, s.partOf, s.rebuilt = item.Instance, item.PartOf, item.Rebuilt
	return s.WithCall(item)
}

// WithCall makes the session use what the engine gives item's call: the
// parallelism slot it gives back while it only waits (Item.GoIdle) and
// the job's shared reads (Item.SharedReads), and its write-only forms
// (Item.WriteOnly). WithOwner does it too.
func (s *Session) WithCall(item deployer.Item) *Session {
	s.idle, s.shared, s.writeOnly = item.GoIdle, item.SharedReads, item.WriteOnly
	return s
}

// goIdle is deployer.Item.GoIdle of the session's call.
func (s *Session) goIdle() (resume func()) {
	if s.idle == nil {
		return func() {}
	}
	return s.idle()
}

// stamp labels d with the session's instance and ApplySet.
func (s *Session) stamp(d *Desired) {
	if s.instance == "" && s.partOf == "" {
		return
	}
	labels := d.Object.GetLabels()
	if labels == nil {
		labels = map[string]string{}
	}
	if s.instance != "" {
		labels[deployer.InstanceLabel] = s.instance
	}
	if s.partOf != "" {
		labels[deployer.PartOfLabel] = s.partOf
	}
	d.Object.SetLabels(labels)
}

// adoptedElsewhere reports whether live now belongs to a newer instance
// of the installation, so deleting it would take away what that instance
// deployed.
func (s *Session) adoptedElsewhere(live *unstructured.Unstructured) bool {
	return deployer.AdoptedBy(live.GetLabels()[deployer.InstanceLabel], s.instance)
}

// ItemID is the deploy item the session works for.
func (s *Session) ItemID() string { return s.itemID }

// mapping is where an object lives in the API.
type mapping struct {
	GVR        schema.GroupVersionResource
	Namespaced bool
}

// mappingFor resolves gvk through the shared discovery cache, refreshing it
// once per session when a kind is unknown (a CRD established since).
func (s *Session) mappingFor(gvk schema.GroupVersionKind) (mapping, error) {
	m, err := s.clients.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if meta.IsNoMatchError(err) {
		s.mu.Lock()
		if !s.resetOnce {
			s.resetOnce = true
			s.clients.Mapper.Reset()
		}
		s.mu.Unlock()
		m, err = s.clients.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	}
	if err != nil {
		if meta.IsNoMatchError(err) {
			// Transient: another deploy item may be about to install the CRD.
			return mapping{}, fmt.Errorf("kind %s is not served by the cluster (is its CRD installed?): %w", gvk, err)
		}
		return mapping{}, err
	}
	return mapping{GVR: m.Resource, Namespaced: m.Scope.Name() == meta.RESTScopeNameNamespace}, nil
}

// crdMappings returns the mappings the CRDs among objs will serve, so their
// custom resources can be ordered and applied before discovery knows them.
func crdMappings(objs []*Desired) map[schema.GroupVersionKind]mapping {
	out := map[schema.GroupVersionKind]mapping{}
	for _, d := range objs {
		if !isCRD(d.Object) {
			continue
		}
		group, _, _ := unstructured.NestedString(d.Object.Object, "spec", "group")
		kind, _, _ := unstructured.NestedString(d.Object.Object, "spec", "names", "kind")
		plural, _, _ := unstructured.NestedString(d.Object.Object, "spec", "names", "plural")
		scope, _, _ := unstructured.NestedString(d.Object.Object, "spec", "scope")
		versions, _, _ := unstructured.NestedSlice(d.Object.Object, "spec", "versions")
		for _, v := range versions {
			vm, _ := v.(map[string]any)
			name, _ := vm["name"].(string)
			gvk := schema.GroupVersionKind{Group: group, Version: name, Kind: kind}
			out[gvk] = mapping{GVR: schema.GroupVersionResource{Group: group, Version: name, Resource: plural}, Namespaced: scope != "Cluster"}
		}
	}
	return out
}

// resolve sets the mapping of every desired object and defaults the
// namespace of namespaced objects to the kubeconfig's namespace.
func (s *Session) resolve(objs []*Desired) (map[*Desired]mapping, error) {
	fromCRDs := crdMappings(objs)
	out := make(map[*Desired]mapping, len(objs))
	for _, d := range objs {
		gvk := d.Object.GroupVersionKind()
		m, ok := fromCRDs[gvk]
		if !ok {
			var err error
			if m, err = s.mappingFor(gvk); err != nil {
				return nil, fmt.Errorf("%s: %w", d.Ref(), err)
			}
		}
		switch {
		case m.Namespaced && d.Object.GetNamespace() == "":
			d.Object.SetNamespace(s.namespace)
		case !m.Namespaced && d.Object.GetNamespace() != "":
			return nil, failure.Terminalf("InvalidConfig", "%s: %s is cluster-scoped but the manifest sets a namespace", d.Ref(), gvk.Kind)
		}
		out[d] = m
	}
	return out, nil
}

// resourceFor returns the client for ref's kind and namespace.
func (s *Session) resourceFor(ref ObjectRef) (dynamic.ResourceInterface, mapping, error) {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return nil, mapping{}, failure.Terminalf("InvalidConfig", "%s: invalid apiVersion: %v", ref, err)
	}
	m, err := s.mappingFor(gv.WithKind(ref.Kind))
	if err != nil {
		return nil, mapping{}, fmt.Errorf("%s: %w", ref, err)
	}
	return s.client(m, ref.Namespace), m, nil
}

func (s *Session) client(m mapping, namespace string) dynamic.ResourceInterface {
	if m.Namespaced {
		return s.clients.Dynamic.Resource(m.GVR).Namespace(namespace)
	}
	return s.clients.Dynamic.Resource(m.GVR)
}

// workers bounds the requests one session sends at once.
const workers = 16

// parallel runs fn for every object with a bounded number of workers and
// returns the first error; fn must be safe for concurrent use.
func parallel(ctx context.Context, objs []*Desired, fn func(context.Context, *Desired) error) error {
	return parallelEach(ctx, len(objs), func(ctx context.Context, i int) error { return fn(ctx, objs[i]) })
}

// parallelEach runs fn for 0 … n-1 with a bounded number of workers and
// returns the first error; fn must be safe for concurrent use.
func parallelEach(ctx context.Context, n int, fn func(context.Context, int) error) error {
	if n == 1 { // the common case needs no goroutine
		if err := fn(ctx, 0); err != nil {
			return err
		}
		return ctx.Err()
	}
	sem := make(chan struct{}, workers)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for i := 0; i < n; i++ {
		if ctx.Err() != nil {
			break
		}
		sem <- struct{}{}
		wg.Add(1)
		go func(i int) {
			defer func() { <-sem; wg.Done() }()
			if err := fn(ctx, i); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return firstErr
}
