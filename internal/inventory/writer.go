package inventory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// writeTimeout bounds one background write of a parent.
const writeTimeout = 30 * time.Second

var secrets = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

// fieldManager writes the parents (server-side apply).
const fieldManager = "landscaper/inventory"

// parent is the inventory of one installation in one cluster during a
// job. Writes are coalesced: at most one is in flight, and when it
// returns the latest content is written once more if anything changed.
// Only recording what was deployed starts a write: an item removed (it is
// gone from the cluster) is written with the next change or at close, as
// a record that still lists a deleted item loses nothing — rebuilding
// from it deletes the item again, and finds nothing to delete.
type parent struct {
	client dynamic.ResourceInterface
	// apply writes the parent (server-side apply, forced); only whether
	// it succeeded is used.
	apply           func(ctx context.Context, s *unstructured.Unstructured) error
	name, namespace string
	id              string
	root, instance  string

	openOnce sync.Mutex // held while the parent is read (and first written)
	opened   bool
	found    bool // it existed when read
	// recorded are the items the parent held when it was read (Recorder.Rebuild).
	recorded []RecordedItem
	created  bool // this job wrote it, so it must keep it current
	foreign  bool // a newer instance owns it: never written or deleted
	// ignored says why the Secret of the parent's name (of ignoredUID)
	// was not used (fetch); "" when it was, or there was none.
	ignored    string
	ignoredUID types.UID

	mu      sync.Mutex
	items   map[string]entry
	kept    json.RawMessage // Recorder.Keep; what the parent held when read until then
	keep    bool            // kept changed: close writes it
	dirty   bool            // a write must follow
	removed bool            // an item was removed since the last write started
	writing bool
	idle    *sync.Cond
	lastErr error
	// badItem is an item that could not be encoded (invalid JSON in its
	// config or status): never recorded, so the job must fail.
	badItem error

	// key signs every write (sign.go); with verify, open refuses a
	// record that is not signed with it (Recorder.SignWith). cluster is
	// the identity of the parent's cluster the signature binds, read by
	// identify when the parent is opened with a key (nil: none).
	key     []byte
	verify  bool
	cluster string
	// seal is how the configurations the parent records are sealed
	// (seal.go).
	seal     *sealing
	identify func(context.Context) (string, error)
	// reconciled is the outcome a reconcile job records (Recorder.Reconciled);
	// nil in every other job, whose writes drop an earlier one.
	reconciled *Reconciled

	// The part Secrets of a split record (parts.go), used by one write at
	// a time: parts are those known to exist — read, listed, or written
	// by this job — and referenced those the head on the cluster names,
	// which are never deleted. partsListed: the cluster's parts were
	// listed, so parts holds any a failed write left behind.
	parts       map[string]bool
	referenced  map[string]bool
	partsListed bool
	// split is what the last write split (parts.go).
	split partCache
	// order is the IDs of items, sorted, as the last content had them.
	order []string
}

// newParent is the parent of root in c's cluster. Its writes ask for
// only the Secret's metadata back (target.Clients.ApplyMetadata): the
// whole Secret would bring the record just sent back to be decoded.
func newParent(c *target.Clients, root, instance string) *parent {
	p := newParentIn(c.Dynamic.Resource(secrets).Namespace(c.Namespace), c.Namespace, root, instance)
	p.identify = func(ctx context.Context) (string, error) { return clusterIdentity(ctx, c.Dynamic) }
	p.apply = func(ctx context.Context, s *unstructured.Unstructured) error {
		_, err := c.ApplyMetadata(ctx, secrets, c.Namespace, s.GetName(), s, applyOptions)
		return err
	}
	return p
}

// newParentIn is the parent of root in namespace, read and written
// through client.
func newParentIn(client dynamic.ResourceInterface, namespace, root, instance string) *parent {
	name := ParentName(root)
	p := &parent{client: client, name: name, namespace: namespace,
		id: ApplySetID(name, namespace), root: root, instance: instance, items: map[string]entry{},
		parts: map[string]bool{}, referenced: map[string]bool{}}
	p.seal, _ = newSealing(nil, nil) // without a key: cannot fail
	p.apply = func(ctx context.Context, s *unstructured.Unstructured) error {
		_, err := client.Apply(ctx, s.GetName(), s, applyOptions)
		return err
	}
	p.idle = sync.NewCond(&p.mu)
	return p
}

var applyOptions = metav1.ApplyOptions{FieldManager: fieldManager, Force: true}

// open reads the parent once per job and starts from its items; with
// create it also writes it (with this instance) before returning, so the
// cluster records the installation before anything is deployed there.
func (p *parent) open(ctx context.Context, create bool) error {
	p.openOnce.Lock()
	defer p.openOnce.Unlock()
	if !p.opened {
		f, err := fetch(ctx, p.client, p.namespace, p.name, p.root)
		if err != nil {
			return err
		}
		p.ignored, p.ignoredUID = f.ignored, f.uid
		if f.parts != nil {
			p.parts, p.partsListed = f.parts, true
		}
		if f.ignored == "" {
			for _, ref := range append(slices.Clip(f.rec.Parts), f.rec.KeptParts...) {
				p.referenced[ref.Name] = true
			}
		}
		if p.key != nil && p.identify != nil {
			if p.cluster, err = p.identify(ctx); err != nil {
				return err
			}
		}
		if p.verify && f.exists && f.ignored == "" {
			if err := f.verify(p.key, p.cluster, p.namespace, p.name); err != nil {
				return err
			}
		}
		if f.exists && f.ignored == "" {
			// What the job starts from has the configurations opened; the
			// entries written again keep them sealed as they were read.
			recorded, err := p.seal.openRead(f.rec.Items, p.verify, p.namespace, p.name)
			if err != nil {
				return err
			}
			p.found, p.recorded = true, recorded
			p.mu.Lock()
			p.kept = f.rec.Kept
			for _, it := range f.rec.Items {
				if e, err := newEntry(it, p.seal); err == nil {
					p.items[it.ID] = e
				}
			}
			p.foreign = !create && deployer.AdoptedBy(f.instance, p.instance)
			p.mu.Unlock()
		}
		p.opened = true
	}
	if !create || p.created {
		return nil
	}
	if p.ignored != "" {
		if err := p.replaceIgnored(ctx, p.ignoredUID); err != nil {
			return err
		}
	}
	p.mu.Lock()
	p.foreign = false // applying adopts the inventory, as it adopts the objects
	content := p.contentLocked()
	p.mu.Unlock()
	if err := p.write(ctx, content); err != nil {
		return err
	}
	p.created = true
	return nil
}

func (p *parent) put(it RecordedItem) {
	e, err := newEntry(it, p.seal)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		p.badItem = fmt.Errorf("recording deploy item %s in %s/%s: %w", it.ID, p.namespace, p.name, err)
		return
	}
	p.items[it.ID] = e
	p.changedLocked()
}

func (p *parent) remove(id string) {
	p.mu.Lock()
	if _, ok := p.items[id]; ok {
		delete(p.items, id)
		p.removed = true
	}
	p.mu.Unlock()
}

// changedLocked starts a write unless one is in flight; that one writes
// again when it returns. Holds p.mu.
func (p *parent) changedLocked() {
	if p.foreign {
		return
	}
	p.dirty = true
	if p.writing {
		return
	}
	p.writing = true
	go p.drain()
}

// drain writes until the content stopped changing.
func (p *parent) drain() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for p.dirty {
		p.dirty, p.removed, p.keep = false, false, false
		content := p.contentLocked()
		p.mu.Unlock()
		// Detached from the call that changed it: a write that started
		// must finish, so the record never lags behind the cluster.
		ctx, cancel := context.WithTimeout(context.Background(), writeTimeout)
		err := p.write(ctx, content)
		cancel()
		p.mu.Lock()
		p.lastErr = err
	}
	p.writing = false
	p.idle.Broadcast()
}

// contentLocked is the record to write now, its items sorted by ID.
// Holds p.mu.
func (p *parent) contentLocked() content {
	c := content{installation: p.root, instance: p.instance, kept: p.kept, reconciled: p.reconciled, key: p.key, cluster: p.cluster,
		items: make([]entry, 0, len(p.items))}
	if !p.sameIDsLocked() {
		p.order = p.order[:0]
		for id := range p.items {
			p.order = append(p.order, id)
		}
		slices.Sort(p.order)
	}
	for _, id := range p.order {
		c.items = append(c.items, p.items[id])
	}
	return c
}

// sameIDsLocked says whether p.order holds the IDs of p.items: then they
// need no sorting again (sorting 50,000 entries cost more than the rest
// of a write of one changed item). Holds p.mu.
func (p *parent) sameIDsLocked() bool {
	if len(p.order) != len(p.items) {
		return false
	}
	for _, id := range p.order {
		if _, ok := p.items[id]; !ok {
			return false
		}
	}
	return true
}

// write writes the record of c: the parts the cluster does not hold yet,
// then the parent, which makes them the record; the parts it no longer
// names go later (collect), so that a write that fails half way leaves
// the previous record whole.
func (p *parent) write(ctx context.Context, c content) error {
	l, err := c.layout(p.name, p.namespace, p.split)
	if err != nil {
		return err
	}
	if len(l.parts) > 0 && !p.partsListed {
		listed, err := listParts(ctx, p.client, p.name)
		if err != nil {
			return fmt.Errorf("writing %s/%s: listing its parts: %w", p.namespace, p.name, err)
		}
		for n := range listed {
			p.parts[n] = true
		}
		p.partsListed = true
	}
	if err := p.writeParts(ctx, l.parts); err != nil {
		return fmt.Errorf("writing %s/%s: %w", p.namespace, p.name, err)
	}
	if err := p.apply(ctx, l.parent); err != nil {
		return fmt.Errorf("writing %s/%s: %w", p.namespace, p.name, err)
	}
	p.split = l.cache
	p.referenced = make(map[string]bool, len(l.parts))
	for _, pt := range l.parts {
		p.referenced[pt.ref.Name] = true
	}
	if len(p.parts)-len(p.referenced) > maxGarbage {
		p.collect(ctx)
	}
	return nil
}

// maxGarbage is how many parts no head names a parent keeps before a
// write deletes them; the rest go at close.
const maxGarbage = 64

// partWriters is how many parts one write writes at once.
const partWriters = 4

// writeParts writes those of parts the cluster does not hold, a few at a
// time; a part that exists has the same content, which its name says.
func (p *parent) writeParts(ctx context.Context, parts []part) error {
	var todo []part
	for _, pt := range parts {
		if !p.parts[pt.ref.Name] {
			todo = append(todo, pt)
			p.parts[pt.ref.Name] = false // pending: dedupes a part named twice
		}
	}
	if len(todo) == 0 {
		return nil
	}
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		errs []error
		next = make(chan part)
	)
	for range min(partWriters, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for pt := range next {
				err := p.apply(ctx, pt.object(p.name, p.namespace))
				mu.Lock()
				if err != nil {
					errs = append(errs, fmt.Errorf("part %s: %w", pt.ref.Name, err))
				} else {
					p.parts[pt.ref.Name] = true
				}
				mu.Unlock()
			}
		}()
	}
	for _, pt := range todo {
		next <- pt
	}
	close(next)
	wg.Wait()
	for n, ok := range p.parts {
		if !ok {
			delete(p.parts, n) // not written; it may exist (a failed write): the next write writes it again
		}
	}
	return errors.Join(errs...)
}

// collect deletes the parts no head on the cluster names. One it cannot
// delete is tried again by the next collect; nothing reads it.
func (p *parent) collect(ctx context.Context) {
	for n := range p.parts {
		if p.referenced[n] {
			continue
		}
		if err := p.client.Delete(ctx, n, metav1.DeleteOptions{}); err == nil || apierrors.IsNotFound(err) {
			delete(p.parts, n)
		}
	}
}

// close waits for the write in flight, then deletes the parent when no
// item is left in it, or writes what is pending.
func (p *parent) close(ctx context.Context) error {
	p.openOnce.Lock()
	opened, existed, created := p.opened, p.found || p.created, p.created
	p.openOnce.Unlock()
	if !opened {
		return nil // never read: nothing known to write, and never to delete
	}
	p.mu.Lock()
	for p.writing {
		p.idle.Wait()
	}
	err, empty, foreign, removed, bad := p.lastErr, len(p.items) == 0, p.foreign, p.removed || p.keep, p.badItem
	p.mu.Unlock()
	if bad != nil {
		return bad
	}
	if foreign {
		return nil
	}
	if empty {
		if !existed {
			return nil // read as absent and never written: nothing to delete
		}
		// The parts first, the parent last: a destroy that fails half
		// way leaves a parent whose record cannot be read, which the next
		// apply replaces, never parts that nothing names.
		for n := range p.parts {
			if derr := p.client.Delete(ctx, n, metav1.DeleteOptions{}); derr != nil && !apierrors.IsNotFound(derr) {
				return fmt.Errorf("deleting %s/%s: %w", p.namespace, n, derr)
			}
			delete(p.parts, n)
		}
		if derr := p.client.Delete(ctx, p.name, metav1.DeleteOptions{}); derr != nil && !apierrors.IsNotFound(derr) {
			return fmt.Errorf("deleting %s/%s: %w", p.namespace, p.name, derr)
		}
		return nil
	}
	if err != nil || removed { // the last background write failed, or removals wait
		p.mu.Lock()
		p.removed, p.keep = false, false
		content := p.contentLocked()
		p.mu.Unlock()
		if err := p.write(ctx, content); err != nil {
			return err
		}
	}
	if created {
		p.collect(ctx) // what the job's writes, or a failed one before, left behind
	}
	return nil
}
