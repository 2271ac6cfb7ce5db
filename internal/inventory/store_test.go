package inventory

import (
	"context"
	"sort"
	"strconv"
	"strings"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// secretStore is a namespace of Secrets: applied, read, listed by one
// label (in pages, as the API server gives them) and deleted. failApply,
// when set, may refuse an apply before it is stored (a crash or a refusal
// half way through a write).
type secretStore struct {
	dynamic.ResourceInterface // unused methods panic
	mu                        sync.Mutex
	objs                      map[string]*unstructured.Unstructured
	applies, lists, deletes   int
	sent                      int // bytes of data (base64) applied
	failApply                 func(name string) error
}

func newSecretStore() *secretStore {
	return &secretStore{objs: map[string]*unstructured.Unstructured{}}
}

func (s *secretStore) Apply(_ context.Context, name string, obj *unstructured.Unstructured, _ metav1.ApplyOptions, _ ...string) (*unstructured.Unstructured, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failApply != nil {
		if err := s.failApply(name); err != nil {
			return nil, err
		}
	}
	s.applies++
	data, _, _ := unstructured.NestedStringMap(obj.Object, "data")
	for _, v := range data {
		s.sent += len(v)
	}
	s.objs[name] = obj.DeepCopy()
	return obj, nil
}

func (s *secretStore) Get(_ context.Context, name string, _ metav1.GetOptions, _ ...string) (*unstructured.Unstructured, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if o, ok := s.objs[name]; ok {
		return o.DeepCopy(), nil
	}
	return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
}

func (s *secretStore) Delete(_ context.Context, name string, _ metav1.DeleteOptions, _ ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.objs[name]; !ok {
		return apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
	}
	s.deletes++
	delete(s.objs, name)
	return nil
}

// List supports a selector of one label "key=value", Limit and Continue.
func (s *secretStore) List(_ context.Context, opts metav1.ListOptions) (*unstructured.UnstructuredList, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lists++
	key, value, _ := strings.Cut(opts.LabelSelector, "=")
	var names []string
	for n, o := range s.objs {
		if opts.LabelSelector == "" || o.GetLabels()[key] == value {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	from, _ := strconv.Atoi(opts.Continue)
	out := &unstructured.UnstructuredList{}
	for i := from; i < len(names); i++ {
		if opts.Limit > 0 && int64(len(out.Items)) == opts.Limit {
			out.SetContinue(strconv.Itoa(i))
			break
		}
		out.Items = append(out.Items, *s.objs[names[i]].DeepCopy())
	}
	return out, nil
}

// names are the names of the Secrets stored, sorted.
func (s *secretStore) names() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for n := range s.objs {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}
