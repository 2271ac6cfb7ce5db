package manifest

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// waitEstablished waits until every CRD serves its resources, then drops
// the cached discovery so that later lookups (exports, readiness checks,
// other deploy items) see the new kinds.
func (s *Session) waitEstablished(ctx context.Context, crds []*Desired) error {
	if len(crds) == 0 {
		return nil
	}
	err := poll(ctx, "waiting for CRDs to be established", func(ctx context.Context) (string, error) {
		for _, d := range crds {
			live, err := s.clients.Dynamic.Resource(crdResource).Get(ctx, d.Object.GetName(), metav1.GetOptions{})
			if err != nil {
				return "", fmt.Errorf("%s: %w", d.Ref(), err)
			}
			if !conditionTrue(live, "Established") {
				return fmt.Sprintf("%s has no condition Established=True", d.Ref()), nil
			}
		}
		return "", nil
	})
	if err != nil {
		return err
	}
	s.clients.Mapper.Reset()
	return nil
}

// conditionTrue reports whether status.conditions has type t with status "True".
func conditionTrue(u *unstructured.Unstructured, t string) bool {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		cm, _ := c.(map[string]any)
		if cm["type"] == t {
			return cm["status"] == "True"
		}
	}
	return false
}
