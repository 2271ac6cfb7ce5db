package preview

import (
	"reflect"
	"testing"
)

// TestCompare: added, removed and changed objects, and the items they
// belong to.
func TestCompare(t *testing.T) {
	before := map[string]string{"root/a: v1 ConfigMap x": "1", "root/a: v1 ConfigMap y": "1", "root/b: v1 Secret s": "1"}
	after := map[string]string{"root/a: v1 ConfigMap x": "2", "root/b: v1 Secret s": "1", "root/c: v1 Namespace c": "1"}
	c := Compare(before, after)
	want := Changes{Added: []string{"root/c: v1 Namespace c"}, Removed: []string{"root/a: v1 ConfigMap y"}, Changed: []string{"root/a: v1 ConfigMap x"}}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("Compare = %+v, want %+v", c, want)
	}
	if got := c.Items(); !reflect.DeepEqual(got, []string{"root/a", "root/c"}) {
		t.Errorf("Items = %v", got)
	}
	if c.String() != "1 added, 1 removed, 1 changed" || c.Empty() || !Compare(after, after).Empty() {
		t.Errorf("String = %q, Empty = %v", c, c.Empty())
	}
}
