package manifest

import (
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/resource"
)

// firstDifference returns "" when every field set in want has the same
// value in have, else the path of the first field that differs. Fields
// only in have (defaults, status, fields of other managers) are ignored,
// numbers compare by value and quantities by amount ("1000m" == "1"), and
// an empty map or list in want matches an absent field, because the API
// server drops those.
func firstDifference(path string, want, have any) string {
	switch w := want.(type) {
	case map[string]any:
		h, ok := have.(map[string]any)
		if !ok {
			if len(w) == 0 && have == nil {
				return ""
			}
			return pathOr(path)
		}
		for k, wv := range w {
			if d := firstDifference(path+"."+k, wv, h[k]); d != "" {
				return d
			}
		}
		return ""
	case []any:
		h, ok := have.([]any)
		if !ok {
			if len(w) == 0 && have == nil {
				return ""
			}
			return pathOr(path)
		}
		if len(w) != len(h) {
			return pathOr(path)
		}
		for i := range w {
			if d := firstDifference(fmt.Sprintf("%s[%d]", path, i), w[i], h[i]); d != "" {
				return d
			}
		}
		return ""
	case nil:
		return ""
	default:
		if scalarEqual(want, have) {
			return ""
		}
		return pathOr(path)
	}
}

func pathOr(path string) string {
	if path == "" {
		return "."
	}
	return path
}

func scalarEqual(want, have any) bool {
	if wn, ok := number(want); ok {
		hn, ok := number(have)
		return ok && wn == hn
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
