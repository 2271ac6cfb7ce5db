package template

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v2"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Landscaper reads template output with sigs.k8s.io/yaml: yaml.v2 (YAML
// 1.1: yes/no are booleans, 0777 is octal) into interface{}, keys made
// strings, then JSON text, which we decode with exact numbers. That
// round trip through JSON text was a third of a no-op plan's CPU at 1,000
// deploy items; decodeYAML parses with the same yaml.v2 call and converts
// its values in one walk to what the round trip yields. Whatever the walk
// does not reproduce itself (anything the round trip refuses, non-UTF-8
// text, nesting beyond the JSON decoder's limit, an output other than an
// empty map or nil interface) goes the old way, so results and error
// texts stay the old ones; yamldecode_test.go checks both against each
// other, also by fuzzing.

// jsonMaxDepth is encoding/json's decoder's nesting limit (deeper JSON is
// a syntax error there).
const jsonMaxDepth = 10000

// decodeYAML is DecodeJSON for YAML (and JSON) text: the first document of
// data into out (a *map[string]any or *any). Keys that become the same
// JSON key are an error (yamlkeys.go), whichever way it decodes.
func decodeYAML(data []byte, out any) error {
	var (
		doc    any
		parsed bool
	)
	switch o := out.(type) {
	case *map[string]any:
		if len(*o) != 0 {
			break // DecodeJSON would merge into it: the old way does
		}
		var err error
		if doc, err = parseYAML(data); err != nil {
			return err
		}
		parsed = true
		switch d := doc.(type) {
		case nil:
			*o = nil // JSON null sets a map to nil
			return nil
		case map[any]any:
			m := *o
			if m == nil {
				m = make(map[string]any, len(d))
			}
			if jsonMap(m, d, 1) {
				*o = m
				return nil
			}
			clear(m) // the old way must find it empty, as it was
		}
	case *any:
		if *o != nil {
			break // DecodeJSON decodes into a pointer held there
		}
		var err error
		if doc, err = parseYAML(data); err != nil {
			return err
		}
		parsed = true
		if v, ok := jsonValue(doc, 0); ok {
			*o = v
			return nil
		}
	}
	if !parsed {
		var err error
		doc, err = parseYAML(data)
		parsed = err == nil // else the round trip returns the same error
	}
	if parsed {
		if err := keyCollision(doc, ""); err != nil {
			return err
		}
	}
	return decodeYAMLViaJSON(data, out)
}

// parseYAML is sigs.k8s.io/yaml's parse (YAMLToJSON returns its error as
// it is).
func parseYAML(data []byte) (any, error) {
	var doc any
	err := yaml.Unmarshal(data, &doc)
	return doc, err
}

// decodeYAMLViaJSON is the round trip itself, for what jsonValue leaves.
func decodeYAMLViaJSON(data []byte, out any) error {
	j, err := sigsyaml.YAMLToJSON(data)
	if err != nil {
		return err
	}
	return DecodeJSON(j, out)
}

// jsonValue is v (a yaml.v2 value nested in depth maps and lists) as
// JSON text decoded by DecodeJSON would hold it; false when the round
// trip errs or may change it otherwise.
func jsonValue(v any, depth int) (any, bool) {
	switch x := v.(type) {
	case nil, bool:
		return x, true
	case string:
		// json.Marshal replaces invalid UTF-8 (a !!binary value's bytes).
		return x, utf8.ValidString(x)
	case int:
		return int64(x), true
	case int64:
		return x, true
	case uint64:
		return api.ExactNumber(json.Number(strconv.FormatUint(x, 10))), true
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil, false // json.Marshal refuses them
		}
		// The text json.Marshal writes decides the form: 1.0 prints as 1
		// and becomes an int64, 1e20 as its 21 digits.
		text, err := json.Marshal(x)
		if err != nil {
			return nil, false
		}
		return api.ExactNumber(json.Number(text)), true
	case []any:
		if depth >= jsonMaxDepth {
			return nil, false
		}
		l := make([]any, len(x))
		for i, e := range x {
			var ok bool
			if l[i], ok = jsonValue(e, depth+1); !ok {
				return nil, false
			}
		}
		return l, true
	case map[any]any:
		if depth >= jsonMaxDepth {
			return nil, false
		}
		m := make(map[string]any, len(x))
		return m, jsonMap(m, x, depth+1)
	}
	return nil, false
}

// jsonMap fills m (empty) with src's entries, m being nested in depth
// maps and lists (itself included). Keys that become the same string (1
// and "1") leave the map to decodeYAML's error, which keyCollision words.
func jsonMap(m map[string]any, src map[any]any, depth int) bool {
	for k, e := range src {
		key, ok := jsonKey(k)
		if !ok {
			return false
		}
		if _, dup := m[key]; dup {
			return false
		}
		if m[key], ok = jsonValue(e, depth); !ok {
			return false
		}
	}
	return true
}

// jsonKey is the string sigs.k8s.io/yaml makes of a yaml.v2 map key.
func jsonKey(k any) (string, bool) {
	switch x := k.(type) {
	case string:
		return x, utf8.ValidString(x)
	case int:
		return strconv.Itoa(x), true
	case int64:
		return strconv.FormatInt(x, 10), true
	case float64:
		// yaml.v2's float32-precision text, with its names for the specials.
		s := strconv.FormatFloat(x, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s, true
	case bool:
		return strconv.FormatBool(x), true
	}
	return "", false // nil, uint64 keys: sigs.k8s.io/yaml refuses them
}
