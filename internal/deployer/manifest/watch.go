package manifest

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// reader is where a check reads the objects it judges: live from the API
// server (liveReader, one request per read) or from the caches that
// watches keep current (watchReader, no request).
type reader interface {
	// get returns the object, or nil if it does not exist.
	get(ctx context.Context, ref ObjectRef) (*unstructured.Unstructured, error)
	// selected returns the objects of ls's kind, in all namespaces, that
	// carry its labels.
	selected(ctx context.Context, ls *LabelSelector) ([]unstructured.Unstructured, error)
}

// check reports what is still missing ("" when done).
type check func(ctx context.Context, r reader) (pending string, err error)

// await returns once c finds nothing missing, re-running it whenever an
// object in sel changes, as reported by one list and watch per kind and
// namespace. Where the cluster refuses the list or the watch (RBAC may
// grant get alone), it polls instead. When ctx ends, the error says what
// the last check found missing.
func (s *Session) await(ctx context.Context, what string, sel selection, c check) error {
	if sel.empty() {
		return poll(ctx, what, func(ctx context.Context) (string, error) { return c(ctx, liveReader{s}) })
	}
	w, err := s.startWatches(ctx, sel)
	if errors.Is(err, errWatchRefused) {
		return poll(ctx, what, func(ctx context.Context) (string, error) { return c(ctx, liveReader{s}) })
	}
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	defer w.stop()
	// From here on this call only waits for events.
	defer s.goIdle()()
	for {
		pending, err := c(ctx, w)
		if err != nil {
			return err
		}
		if pending == "" {
			return nil
		}
		select {
		case <-w.changed:
		case err := <-w.failed:
			if errors.Is(err, errWatchRefused) {
				return poll(ctx, what, func(ctx context.Context) (string, error) { return c(ctx, liveReader{s}) })
			}
			return fmt.Errorf("%s: %w", what, err)
		case <-ctx.Done():
			return fmt.Errorf("%s: %s: %w", what, pending, ctx.Err())
		}
	}
}

// liveReader reads from the API server at every call.
type liveReader struct{ s *Session }

func (l liveReader) get(ctx context.Context, ref ObjectRef) (*unstructured.Unstructured, error) {
	client, _, err := l.s.resourceFor(ref)
	if err != nil {
		return nil, err
	}
	live, err := client.Get(ctx, ref.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", ref, err)
	}
	return live, nil
}

func (l liveReader) selected(ctx context.Context, ls *LabelSelector) ([]unstructured.Unstructured, error) {
	_, m, err := l.s.resourceFor(ObjectRef{APIVersion: ls.APIVersion, Kind: ls.Kind})
	if err != nil {
		return nil, err
	}
	// All namespaces, as Landscaper does.
	list, err := l.s.clients.Dynamic.Resource(m.GVR).List(ctx, metav1.ListOptions{LabelSelector: ls.selector()})
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", ls.Kind, err)
	}
	return list.Items, nil
}

// selector is ls's labels as a label selector string, in a stable order.
func (ls *LabelSelector) selector() string {
	sel := make([]string, 0, len(ls.Labels))
	for k, v := range ls.Labels {
		sel = append(sel, k+"="+v)
	}
	sort.Strings(sel)
	return strings.Join(sel, ",")
}

// selection is what a wait reads: objects by reference, and objects by
// label selector.
type selection struct {
	refs   []ObjectRef
	labels []*LabelSelector
}

func (s selection) empty() bool { return len(s.refs) == 0 && len(s.labels) == 0 }

// errWatchRefused means the cluster does not let this client list or
// watch a kind; the caller polls instead.
var errWatchRefused = errors.New("list or watch refused")

// streamKey identifies one list-and-watch: a kind in a namespace ("" for
// cluster-scoped kinds and label selections across namespaces), narrowed
// to one object by name or to objects with labels.
type streamKey struct {
	gvr             schema.GroupVersionResource
	namespace, name string
	labels          string
}

// stream is the cached state of one list-and-watch.
type stream struct {
	key  streamKey
	keep map[string]bool // names to cache; nil keeps all
	mu   sync.Mutex
	objs map[string]*unstructured.Unstructured // by namespace/name
}

func (st *stream) replace(items []unstructured.Unstructured) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.objs = make(map[string]*unstructured.Unstructured, len(items))
	for i := range items {
		st.put(&items[i])
	}
}

// put stores o; the caller holds mu.
func (st *stream) put(o *unstructured.Unstructured) {
	if st.keep == nil || st.keep[o.GetName()] {
		st.objs[o.GetNamespace()+"/"+o.GetName()] = o
	}
}

func (st *stream) event(ev watch.Event) {
	o, ok := ev.Object.(*unstructured.Unstructured)
	if !ok {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if ev.Type == watch.Deleted {
		delete(st.objs, o.GetNamespace()+"/"+o.GetName())
		return
	}
	st.put(o)
}

// watchReader answers reads from the streams' caches.
type watchReader struct {
	s       *Session
	streams map[streamKey]*stream
	// changed gets a token (never more than one waits) after a change.
	changed chan struct{}
	failed  chan error
	cancel  context.CancelFunc
	wg      sync.WaitGroup
}

func (w *watchReader) stop() {
	w.cancel()
	w.wg.Wait()
}

func (w *watchReader) notify() {
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

func (w *watchReader) get(ctx context.Context, ref ObjectRef) (*unstructured.Unstructured, error) {
	_, m, err := w.s.resourceFor(ref)
	if err != nil {
		return nil, err
	}
	ns := ""
	if m.Namespaced {
		ns = ref.Namespace
	}
	for _, k := range []streamKey{{gvr: m.GVR, namespace: ns, name: ref.Name}, {gvr: m.GVR, namespace: ns}} {
		if st, ok := w.streams[k]; ok {
			st.mu.Lock()
			defer st.mu.Unlock()
			return st.objs[ns+"/"+ref.Name], nil
		}
	}
	return liveReader{w.s}.get(ctx, ref) // not selected up front
}

func (w *watchReader) selected(ctx context.Context, ls *LabelSelector) ([]unstructured.Unstructured, error) {
	_, m, err := w.s.resourceFor(ObjectRef{APIVersion: ls.APIVersion, Kind: ls.Kind})
	if err != nil {
		return nil, err
	}
	st, ok := w.streams[streamKey{gvr: m.GVR, labels: ls.selector()}]
	if !ok {
		return liveReader{w.s}.selected(ctx, ls)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	out := make([]unstructured.Unstructured, 0, len(st.objs))
	for _, o := range st.objs {
		out = append(out, *o)
	}
	sort.Slice(out, func(i, j int) bool { return lessRef(deployer.RefOf(out[i].Object), deployer.RefOf(out[j].Object)) })
	return out, nil
}

// startWatches lists and starts watching everything sel reads: one stream
// per kind and namespace (narrowed to the name when only one object of it
// is read) and one per label selector. It returns once every stream has
// listed, so the first check sees the state of that moment.
func (s *Session) startWatches(ctx context.Context, sel selection) (*watchReader, error) {
	streams := map[streamKey]*stream{}
	names := map[streamKey]map[string]bool{}
	for _, ref := range sel.refs {
		_, m, err := s.resourceFor(ref)
		if meta.IsNoMatchError(err) {
			continue // the kind is not served: a live read says so
		}
		if err != nil {
			return nil, err
		}
		k := streamKey{gvr: m.GVR}
		if m.Namespaced {
			k.namespace = ref.Namespace
		}
		if names[k] == nil {
			names[k] = map[string]bool{}
		}
		names[k][ref.Name] = true
	}
	for k, n := range names {
		if len(n) == 1 {
			for name := range n {
				k.name = name
			}
			streams[k] = &stream{key: k}
			continue
		}
		streams[k] = &stream{key: k, keep: n}
	}
	for _, ls := range sel.labels {
		_, m, err := s.resourceFor(ObjectRef{APIVersion: ls.APIVersion, Kind: ls.Kind})
		if err != nil {
			return nil, err
		}
		k := streamKey{gvr: m.GVR, labels: ls.selector()}
		streams[k] = &stream{key: k}
	}
	ctx, cancel := context.WithCancel(ctx)
	w := &watchReader{s: s, streams: streams, changed: make(chan struct{}, 1), failed: make(chan error, len(streams)), cancel: cancel}
	synced := make(chan error, len(streams))
	for _, st := range streams {
		w.wg.Add(1)
		go func() {
			defer w.wg.Done()
			w.follow(ctx, st, synced)
		}()
	}
	for range streams {
		select {
		case err := <-synced:
			if err != nil {
				w.stop()
				return nil, err
			}
		case <-ctx.Done():
			w.stop()
			return nil, ctx.Err()
		}
	}
	return w, nil
}

// Pauses before a stream is re-established after an error.
const (
	rewatchFirst = 100 * time.Millisecond
	rewatchMax   = 2 * time.Second
)

// follow lists st's objects, reports on synced, then applies watch events
// until ctx ends. A watch that ends is resumed from the last version seen;
// one whose version expired lists again. Errors of the first list (and a
// refusal at any time) are reported on synced or failed and end the
// stream.
func (w *watchReader) follow(ctx context.Context, st *stream, synced chan<- error) {
	client := w.s.clients.Dynamic.Resource(st.key.gvr).Namespace(st.key.namespace)
	opts := metav1.ListOptions{LabelSelector: st.key.labels}
	if st.key.name != "" {
		opts.FieldSelector = fields.OneTermEqualSelector("metadata.name", st.key.name).String()
	}
	report := func(err error) {
		if refused(err) {
			err = fmt.Errorf("%w: %w", errWatchRefused, err)
		}
		if synced != nil {
			synced <- err
			synced = nil
			return
		}
		w.failed <- err
	}
	pause, version := rewatchFirst, ""
	for ctx.Err() == nil {
		if version == "" {
			list, err := client.List(ctx, opts)
			if err != nil {
				if synced != nil || refused(err) {
					report(fmt.Errorf("listing %s: %w", st.key.gvr.Resource, err))
					return
				}
				sleep(ctx, &pause)
				continue
			}
			st.replace(list.Items)
			version = list.GetResourceVersion()
			if synced != nil {
				synced <- nil
				synced = nil
			} else {
				w.notify()
			}
		}
		wopts := opts
		wopts.ResourceVersion, wopts.AllowWatchBookmarks = version, true
		wi, err := client.Watch(ctx, wopts)
		if err != nil {
			if refused(err) {
				report(fmt.Errorf("watching %s: %w", st.key.gvr.Resource, err))
				return
			}
			if apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
				version = ""
			}
			sleep(ctx, &pause)
			continue
		}
		var healthy bool
		version, healthy = w.consume(ctx, st, wi, version)
		wi.Stop()
		if healthy {
			pause = rewatchFirst // the watch just timed out; resume at once
		} else {
			sleep(ctx, &pause)
		}
	}
}

// consume applies wi's events to st until the watch ends, and returns the
// version to resume from ("" to list again) and whether the watch ended
// without an error.
func (w *watchReader) consume(ctx context.Context, st *stream, wi watch.Interface, version string) (string, bool) {
	for {
		select {
		case <-ctx.Done():
			return version, true
		case ev, ok := <-wi.ResultChan():
			if !ok {
				return version, true
			}
			switch ev.Type {
			case watch.Error:
				if err := apierrors.FromObject(ev.Object); apierrors.IsResourceExpired(err) || apierrors.IsGone(err) {
					return "", true
				}
				return version, false
			case watch.Bookmark:
			default:
				st.event(ev)
				w.notify()
			}
			if o, ok := ev.Object.(*unstructured.Unstructured); ok && o.GetResourceVersion() != "" {
				version = o.GetResourceVersion()
			}
		}
	}
}

// refused reports whether err means this client may not list or watch
// the kind at all, so retrying is pointless.
func refused(err error) bool {
	return apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) || apierrors.IsMethodNotSupported(err)
}

// sleep waits *pause (or until ctx ends) and doubles it up to rewatchMax.
func sleep(ctx context.Context, pause *time.Duration) {
	t := time.NewTimer(*pause)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	*pause = min(*pause*2, rewatchMax)
}
