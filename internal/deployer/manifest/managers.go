package manifest

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// fieldPath is where an object's field sits: map keys (string) and list
// indexes (int) from the object's root.
type fieldPath []any

func (p fieldPath) String() string {
	if len(p) == 0 {
		return "."
	}
	var b strings.Builder
	for _, s := range p {
		switch x := s.(type) {
		case int:
			b.WriteString("[" + strconv.Itoa(x) + "]")
		default:
			b.WriteString("." + fmt.Sprint(x))
		}
	}
	return b.String()
}

// WithOwnManagers names further field managers whose fields are this
// item's own (the Helm SDK's, for a release): a difference in a field they
// hold names no other manager.
func (s *Session) WithOwnManagers(names ...string) *Session {
	s.ownManagers = append(s.ownManagers, names...)
	return s
}

// differsAt is the drift reason for a field of live that differs from the
// manifest: the path (never the values, which may be secret) and, when
// other field managers than the item's own hold that field in the live
// object's managedFields, their names — who took it, so that the user
// knows whom the next apply takes it back from.
func (s *Session) differsAt(live *unstructured.Unstructured, path fieldPath) string {
	var others []string
	for _, m := range managersOf(live, path) {
		if !s.ownManager(m) {
			others = append(others, strconv.Quote(m))
		}
	}
	if len(others) == 0 {
		return path.String()
	}
	return fmt.Sprintf("%s (held by field manager %s)", path, strings.Join(others, ", "))
}

func (s *Session) ownManager(name string) bool {
	if name == s.manager || strings.HasPrefix(name, s.manager+"/") {
		return true
	}
	for _, own := range s.ownManagers {
		if name == own {
			return true
		}
	}
	return false
}

// managersOf returns the managers whose managedFields entry of live holds
// the field at path (or an atomic field above it), sorted, each once.
func managersOf(live *unstructured.Unstructured, path fieldPath) []string {
	seen := map[string]bool{}
	for _, e := range live.GetManagedFields() {
		if e.FieldsV1 == nil || seen[e.Manager] {
			continue
		}
		var set map[string]any
		if json.Unmarshal(e.FieldsV1.GetRawBytes(), &set) != nil {
			continue
		}
		if holds(set, path, live.Object) {
			seen[e.Manager] = true
		}
	}
	out := make([]string, 0, len(seen))
	for m := range seen {
		out = append(out, m)
	}
	sort.Strings(out)
	return out
}

// holds walks a managedFields set (FieldsV1: "f:<field>", list items as
// "k:<key fields>", "v:<value>" or "i:<index>") along path through the
// live object node, which tells a list index's key. An empty set below a
// field is the field itself, atomic values included.
func holds(set map[string]any, path fieldPath, node any) bool {
	if len(path) == 0 || len(set) == 0 {
		return true
	}
	switch seg := path[0].(type) {
	case string:
		child, ok := set["f:"+seg].(map[string]any)
		if !ok {
			return false
		}
		m, _ := node.(map[string]any)
		return holds(child, path[1:], m[seg])
	case int:
		list, _ := node.([]any)
		if seg < 0 || seg >= len(list) {
			return false
		}
		elem := list[seg]
		for k, v := range set {
			child, ok := v.(map[string]any)
			if ok && itemMatches(k, seg, elem) {
				return holds(child, path[1:], elem)
			}
		}
	}
	return false
}

// itemMatches says whether the managedFields key k names the list item
// elem at index i.
func itemMatches(k string, i int, elem any) bool {
	switch {
	case strings.HasPrefix(k, "i:"):
		return k == "i:"+strconv.Itoa(i)
	case strings.HasPrefix(k, "v:"):
		var v any
		return json.Unmarshal([]byte(k[2:]), &v) == nil && keyEqual(v, elem)
	case strings.HasPrefix(k, "k:"):
		var keys map[string]any
		m, ok := elem.(map[string]any)
		if !ok || json.Unmarshal([]byte(k[2:]), &keys) != nil {
			return false
		}
		for f, want := range keys {
			if !keyEqual(want, m[f]) {
				return false
			}
		}
		return true
	}
	return false
}

// keyEqual compares a value decoded from JSON (numbers float64) with one
// of an unstructured object (numbers int64).
func keyEqual(a, b any) bool {
	if an, ok := number(a); ok {
		bn, ok := number(b)
		return ok && an == bn
	}
	return reflect.DeepEqual(a, b)
}
