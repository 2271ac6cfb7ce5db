package template

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Template outputs, states, data mappings and fromYaml decode through
// DecodeJSON / decodeYAML instead of json.Unmarshal / yaml.Unmarshal,
// which turn every number into a float64 and so round integers above 2^53
// (IDs, sizes, byte counts) on their way from the imports (and import
// defaults, targets) to the deploy items and exports.

// DecodeJSON decodes one JSON document into out (a *map[string]any or
// *any) with exact numbers (api.ExactNumber).
func DecodeJSON(data []byte, out any) error {
	if err := api.DecodeExact(data, out); err != nil {
		return err
	}
	switch o := out.(type) {
	case *map[string]any:
		api.MapNumbers(*o, api.ExactNumber)
	case *any:
		*o = api.MapNumbers(*o, api.ExactNumber)
	}
	return nil
}

// templateNumbers is v with every json.Number (values decoded from the
// snapshot keep their numbers so) replaced by api.ExactNumber, copying only
// the maps and lists that hold one; changed says whether it replaced any.
// GoTemplate's comparisons refuse a json.Number next to an int
// ("incompatible types"): a value must not behave differently for coming
// from the previous job.
func templateNumbers(v any) (out any, changed bool) {
	switch x := v.(type) {
	case json.Number:
		return api.ExactNumber(x), true
	case map[string]any:
		var m map[string]any
		for k, e := range x {
			if n, ok := templateNumbers(e); ok {
				if m == nil {
					m = maps.Clone(x)
				}
				m[k] = n
			}
		}
		if m != nil {
			return m, true
		}
	case []any:
		var l []any
		for i, e := range x {
			if n, ok := templateNumbers(e); ok {
				if l == nil {
					l = slices.Clone(x)
				}
				l[i] = n
			}
		}
		if l != nil {
			return l, true
		}
	}
	return v, false
}
