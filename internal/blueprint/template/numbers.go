package template

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// Template outputs, states, data mappings and fromYaml decode through
// DecodeJSON / decodeYAML instead of json.Unmarshal / yaml.Unmarshal,
// which turn every number into a float64 and so round integers above 2^53
// (IDs, sizes, byte counts) on their way from the imports (and import
// defaults, targets) to the deploy items and exports.

// DecodeJSON decodes one JSON document into out (a *map[string]any or
// *any) with exact numbers (exactNumber).
func DecodeJSON(data []byte, out any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(out); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the JSON document")
	}
	switch o := out.(type) {
	case *map[string]any:
		exactNumbers(*o)
	case *any:
		*o = exactNumbers(*o)
	}
	return nil
}

// decodeYAML is DecodeJSON for YAML (and JSON) text. The YAML decoder
// reads integers into int64, which the JSON it hands on keeps exact.
func decodeYAML(data []byte, out any) error {
	j, err := yaml.YAMLToJSON(data)
	if err != nil {
		return err
	}
	return DecodeJSON(j, out)
}

// exactNumbers replaces, in place where it can, every json.Number in v by
// exactNumber and returns the result.
func exactNumbers(v any) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = exactNumbers(e)
		}
	case []any:
		for i, e := range x {
			x[i] = exactNumbers(e)
		}
	case json.Number:
		return exactNumber(x)
	}
	return v
}

// exactNumber is an integer as int64, the type Terraform's integers
// arrive in too (templates compare and compute with it); an integer
// beyond int64 stays a json.Number, which prints and marshals as its
// digits; anything else is a float64, as before.
func exactNumber(n json.Number) any {
	if i, err := n.Int64(); err == nil {
		return i
	}
	if !strings.ContainsAny(n.String(), ".eE") {
		return n
	}
	if f, err := n.Float64(); err == nil {
		return f
	}
	return n
}

// templateNumbers is v with every json.Number (values decoded from the
// snapshot keep their numbers so) replaced by exactNumber, copying only
// the maps and lists that hold one; changed says whether it replaced any.
// GoTemplate's comparisons refuse a json.Number next to an int
// ("incompatible types"): a value must not behave differently for coming
// from the previous job.
func templateNumbers(v any) (out any, changed bool) {
	switch x := v.(type) {
	case json.Number:
		return exactNumber(x), true
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
