package manifest

import (
	"encoding/base64"
	"reflect"

	"k8s.io/apimachinery/pkg/api/resource"
)

// objectDifference is difference for a whole object as the API server
// stores it: the manifest's status is not compared (a write of the object
// does not set it), and a Secret's stringData is compared as the data it
// becomes (the server moves it there and keeps no stringData).
func objectDifference(want, have map[string]any) (fieldPath, bool) {
	return difference(nil, storedForm(want), have)
}

// differs says whether objectDifference finds a difference.
func differs(want, have map[string]any) bool {
	_, found := objectDifference(want, have)
	return found
}

func storedForm(want map[string]any) map[string]any {
	_, hasStatus := want["status"]
	stringData, hasStringData := want["stringData"].(map[string]any)
	hasStringData = hasStringData && want["kind"] == "Secret"
	if !hasStatus && !hasStringData {
		return want
	}
	out := make(map[string]any, len(want))
	for k, v := range want {
		out[k] = v
	}
	delete(out, "status")
	if hasStringData {
		data := map[string]any{}
		if d, ok := want["data"].(map[string]any); ok {
			for k, v := range d {
				data[k] = v
			}
		}
		for k, v := range stringData {
			if s, ok := v.(string); ok {
				data[k] = base64.StdEncoding.EncodeToString([]byte(s))
			}
		}
		delete(out, "stringData")
		out["data"] = data
	}
	return out
}

// firstDifference is the path of difference's first field that differs,
// "" when none does.
func firstDifference(want, have any) string {
	if p, found := difference(nil, want, have); found {
		return p.String()
	}
	return ""
}

// difference reports whether a field set in want has another value in
// have, and the path of the first one that does. Fields only in have
// (defaults, status, fields of other managers) are ignored, numbers
// compare by value and quantities by amount ("1000m" == "1", 1 == "1",
// 0.5 == "500m"), and a field want sets to its zero value (false, 0, "",
// an empty list, a map of zero values) matches an absent field: the API
// server's encoding leaves those out (omitempty), so a chart's
// `hostNetwork: false` is stored as nothing.
func difference(path fieldPath, want, have any) (fieldPath, bool) {
	if have == nil && isZero(path, want) {
		return nil, false
	}
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			return path, true
		}
		for k, wv := range w {
			hv, found := h[k]
			p := append(path[:len(path):len(path)], k)
			if !found && keepsEntries(path) && wv != nil {
				// a map of free keys stores "" and {} as they are
				return p, true
			}
			if d, found := difference(p, wv, hv); found {
				return d, true
			}
		}
		return nil, false
	case []any:
		h, ok := have.([]any)
		if !ok || len(w) != len(h) {
			return path, true
		}
		for i := range w {
			if d, found := difference(append(path[:len(path):len(path)], i), w[i], h[i]); found {
				return d, true
			}
		}
		return nil, false
	case nil:
		return nil, false
	default:
		if scalarEqual(want, have) {
			return nil, false
		}
		return path, true
	}
}

// keepsEntries reports whether the map at path has free keys (labels,
// annotations, a ConfigMap's or Secret's data) rather than fields: the
// server keeps an entry whose value is "", so its absence is a change.
func keepsEntries(path fieldPath) bool {
	n := len(path)
	switch {
	case n == 1:
		return path[0] == "data" || path[0] == "binaryData"
	case n >= 2 && path[n-2] == "metadata":
		return path[n-1] == "labels" || path[n-1] == "annotations"
	}
	return false
}

// isZero reports whether v is a value the API server stores by leaving
// it out: null, false, 0, "", an empty list, or a map whose every value
// is such a value (but for maps of free keys, see keepsEntries). A list
// of zero values is not: its length is kept.
func isZero(path fieldPath, v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		if keepsEntries(path) {
			return len(x) == 0
		}
		for k, e := range x {
			if !isZero(append(path[:len(path):len(path)], k), e) {
				return false
			}
		}
		return true
	}
	n, ok := number(v)
	return ok && n == 0
}

func scalarEqual(want, have any) bool {
	if wn, ok := number(want); ok {
		if hn, ok := number(have); ok {
			return wn == hn
		}
		// a quantity written as a number (cpu: 1, memory: 1073741824)
		// is stored as its canonical string ("1", "1Gi")
		hs, ok := have.(string)
		if !ok {
			return false
		}
		q, err := resource.ParseQuantity(hs)
		return err == nil && q.AsApproximateFloat64() == wn
	}
	if reflect.DeepEqual(want, have) {
		return true
	}
	ws, ok1 := want.(string)
	hs, ok2 := have.(string)
	if ok1 && ok2 {
		wq, err1 := resource.ParseQuantity(ws)
		hq, err2 := resource.ParseQuantity(hs)
		return err1 == nil && err2 == nil && wq.Cmp(hq) == 0
	}
	if ok1 {
		// an int-or-string field written as a quantity string ("1") read back as a number
		if hn, ok := number(have); ok {
			q, err := resource.ParseQuantity(ws)
			return err == nil && q.AsApproximateFloat64() == hn
		}
	}
	return false
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case float64:
		return n, true
	case float32:
		return float64(n), true
	}
	return 0, false
}

// keepExisting returns want with every field that have already sets
// replaced by have's value: the merge update strategy, where values in the
// cluster win over the manifest.
func keepExisting(want, have map[string]any) map[string]any {
	out := make(map[string]any, len(want))
	for k, wv := range want {
		hv, ok := have[k]
		if !ok {
			out[k] = wv
			continue
		}
		wm, wIsMap := wv.(map[string]any)
		hm, hIsMap := hv.(map[string]any)
		if wIsMap && hIsMap {
			out[k] = keepExisting(wm, hm)
			continue
		}
		out[k] = hv
	}
	return out
}
