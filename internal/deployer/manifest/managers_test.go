package manifest

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestManagersOf: the managers whose managedFields hold a field — by
// field name, list items by key ("k:"), by value ("v:") and atomic fields
// above the path.
func TestManagersOf(t *testing.T) {
	live := &unstructured.Unstructured{Object: decode(t, `{
		"spec": {"replicas": 3, "selector": {"matchLabels": {"app": "a"}},
		  "template": {"spec": {"containers": [{"name": "side", "image": "s:1"}, {"name": "app", "image": "a:2"}]}}},
		"metadata": {"finalizers": ["x", "y"]}}`)}
	fields := metav1.NewFieldsV1
	live.SetManagedFields([]metav1.ManagedFieldsEntry{
		{Manager: "landscaper/item", Operation: metav1.ManagedFieldsOperationApply, FieldsV1: fields(`{"f:spec":{"f:selector":{},"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:name":{}}}}}}}`)},
		{Manager: "hpa-controller", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: fields(`{"f:spec":{"f:replicas":{}}}`)},
		{Manager: "kubectl-set", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: fields(`{"f:spec":{"f:template":{"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{"f:image":{}}}}}}}`)},
		{Manager: "finalizer", Operation: metav1.ManagedFieldsOperationUpdate, FieldsV1: fields(`{"f:metadata":{"f:finalizers":{"v:\"y\"":{}}}}`)},
	})
	for _, tc := range []struct {
		path fieldPath
		want []string
	}{
		{fieldPath{"spec", "replicas"}, []string{"hpa-controller"}},
		{fieldPath{"spec", "template", "spec", "containers", 1, "image"}, []string{"kubectl-set"}},
		{fieldPath{"spec", "template", "spec", "containers", 0, "image"}, []string{}},
		{fieldPath{"spec", "selector", "matchLabels", "app"}, []string{"landscaper/item"}},
		{fieldPath{"metadata", "finalizers", 1}, []string{"finalizer"}},
		{fieldPath{"metadata", "finalizers", 0}, []string{}},
	} {
		if got := managersOf(live, tc.path); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("managersOf(%s) = %v, want %v", tc.path, got, tc.want)
		}
	}
	s := &Session{manager: "landscaper/item"}
	if got := s.differsAt(live, fieldPath{"spec", "replicas"}); got != `.spec.replicas (held by field manager "hpa-controller")` {
		t.Errorf("differsAt = %q", got)
	}
	if got := s.differsAt(live, fieldPath{"spec", "selector", "matchLabels", "app"}); got != ".spec.selector.matchLabels.app" {
		t.Errorf("differsAt of the item's own field = %q", got)
	}
}
