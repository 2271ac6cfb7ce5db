package manifest

import (
	"context"
	"errors"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

var _ deployer.ServerPreviewer = (*Deployer)(nil)

// serverPreviewWorkers bounds the requests of one item's dry run or live
// read; items themselves run in parallel.
const serverPreviewWorkers = 8

// DryRun implements deployer.ServerPreviewer.
func (d *Deployer) DryRun(ctx context.Context, item deployer.Item, objs []deployer.PreviewObject) ([]deployer.PreviewObject, error) {
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return nil, err
	}
	return NewSession(clients, item.ID).DryRun(ctx, objs)
}

// Live implements deployer.ServerPreviewer.
func (d *Deployer) Live(ctx context.Context, item deployer.Item, refs []deployer.ObjectRef) ([]deployer.PreviewObject, error) {
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return nil, err
	}
	return NewSession(clients, item.ID).Live(ctx, refs)
}

// DryRun is deployer.ServerPreviewer's DryRun for this session's item: a
// forced server-side apply with dryRun=All of each object under the
// item's field manager, with its owner label and annotation as Apply
// sends them.
func (s *Session) DryRun(ctx context.Context, objs []deployer.PreviewObject) ([]deployer.PreviewObject, error) {
	out := make([]deployer.PreviewObject, len(objs))
	err := s.each(len(objs), func(i int) error {
		o := objs[i]
		u := (&unstructured.Unstructured{Object: o.Object}).DeepCopy()
		m, err := s.mappingFor(u.GroupVersionKind())
		if meta.IsNoMatchError(err) {
			out[i] = unchecked(o, "its kind is not served yet")
			return nil
		}
		if err != nil {
			return err
		}
		namespace := s.objectNamespace(m, u.GetNamespace())
		u.SetNamespace(namespace)
		labels := u.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[deployer.OwnerLabel] = s.owner
		u.SetLabels(labels)
		annotations := u.GetAnnotations()
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[deployer.OwnerAnnotation] = s.itemID
		u.SetAnnotations(annotations)
		res, err := s.client(m, namespace).Apply(ctx, u.GetName(), u,
			metav1.ApplyOptions{FieldManager: s.manager, Force: true, DryRun: []string{metav1.DryRunAll}})
		var status apierrors.APIStatus
		switch {
		case err == nil:
			out[i] = deployer.PreviewObject{Object: ServerForm(res.Object), Note: o.Note}
		case errors.As(err, &status):
			// The reason only: a refusal's message may quote values.
			out[i] = unchecked(o, fmt.Sprintf("the server refused the dry run (%s)", apierrors.ReasonForError(err)))
		default:
			return err
		}
		return nil
	})
	return out, err
}

// Live is deployer.ServerPreviewer's Live for this session's item.
func (s *Session) Live(ctx context.Context, refs []deployer.ObjectRef) ([]deployer.PreviewObject, error) {
	found := make([]*deployer.PreviewObject, len(refs))
	err := s.each(len(refs), func(i int) error {
		r := refs[i]
		gv, err := schema.ParseGroupVersion(r.APIVersion)
		if err != nil {
			return nil //nolint:nilerr // not an object anyone could have deployed: nothing live to show
		}
		m, err := s.mappingFor(gv.WithKind(r.Kind))
		if meta.IsNoMatchError(err) {
			return nil // its kind is gone, so is the object
		}
		if err != nil {
			return err
		}
		live, err := s.client(m, s.objectNamespace(m, r.Namespace)).Get(ctx, r.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s %s: %w", r.Kind, r.Name, err)
		}
		found[i] = &deployer.PreviewObject{Object: ServerForm(live.Object)}
		return nil
	})
	var out []deployer.PreviewObject
	for _, o := range found {
		if o != nil {
			out = append(out, *o)
		}
	}
	return out, err
}

// objectNamespace is where an object of mapping m named with namespace
// lives: nowhere for a cluster-scoped kind, the session's default
// namespace when it names none.
func (s *Session) objectNamespace(m mapping, namespace string) string {
	switch {
	case !m.Namespaced:
		return ""
	case namespace == "":
		return s.namespace
	}
	return namespace
}

// each runs do(0) … do(n-1), serverPreviewWorkers at a time, and returns
// the first error.
func (s *Session) each(n int, do func(i int) error) error {
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
		slots = make(chan struct{}, serverPreviewWorkers)
	)
	for i := range n {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			if err := do(i); err != nil {
				mu.Lock()
				first = errors.Join(first, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return first
}

// unchecked is o as previewed, noting why the server did not dry-run it.
func unchecked(o deployer.PreviewObject, why string) deployer.PreviewObject {
	note := "not checked by the server: " + why
	if o.Note != "" {
		note = o.Note + "; " + note
	}
	return deployer.PreviewObject{Object: o.Object, Note: note}
}

// serverMetadata is what the API server keeps in metadata for itself.
var serverMetadata = []string{"managedFields", "resourceVersion", "uid", "creationTimestamp", "generation", "selfLink"}

// ServerForm is obj as a server returned it, less what changes without
// anyone applying anything (the server's own metadata, status) and the
// deployers' bookkeeping labels and annotations, which previews leave out
// too. obj is changed.
func ServerForm(obj map[string]any) map[string]any {
	delete(obj, "status")
	md, _ := obj["metadata"].(map[string]any)
	if md == nil {
		return obj
	}
	for _, k := range serverMetadata {
		delete(md, k)
	}
	for field, keys := range map[string][]string{
		"labels":      {deployer.OwnerLabel, deployer.InstanceLabel, deployer.PartOfLabel},
		"annotations": {deployer.OwnerAnnotation},
	} {
		m, _ := md[field].(map[string]any)
		for _, k := range keys {
			delete(m, k)
		}
		if m != nil && len(m) == 0 {
			delete(md, field)
		}
	}
	return obj
}
