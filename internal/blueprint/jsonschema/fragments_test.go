package jsonschema

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestValidate_LooseFragments proves which `$ref` fragments are rewritten
// to their document (gojsonschema's reading) and which are left to the
// validator: JSON pointers and anchors the document defines stay.
func TestValidate_LooseFragments(t *testing.T) {
	cases := []struct {
		schema string
		value  any
		warns  int
		errs   string
	}{
		// pointer fragment: the subschema applies
		{`{"definitions": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#/definitions/n"}}}`,
			map[string]any{"a": "x"}, 0, "/a"},
		// loose fragment: the whole document applies (an object), so a string fails there
		{`{"type": "object", "definitions": {"n": {"type": "integer"}}, "properties": {"a": {"$ref": "#definitions/n"}}}`,
			map[string]any{"a": map[string]any{"a": map[string]any{}}}, 1, ""},
		// a plain-name anchor the document defines is an anchor
		{`{"$defs": {"n": {"$anchor": "num", "type": "integer"}}, "properties": {"a": {"$ref": "#num"}}}`,
			map[string]any{"a": "x"}, 0, "/a"},
		// a plain name that is no anchor is read as gojsonschema reads it
		{`{"type": "object", "properties": {"a": {"$ref": "#nothing"}}}`,
			map[string]any{"a": map[string]any{}}, 1, ""},
	}
	for _, c := range cases {
		var warnings []string
		ctx := Context{Warn: func(w string) { warnings = append(warnings, w) }}
		err := Validate(ctx, "import \"x\"", json.RawMessage(c.schema), c.value, false)
		if len(warnings) != c.warns {
			t.Errorf("%s: warnings %q, want %d", c.schema, warnings, c.warns)
		}
		switch {
		case c.errs == "" && err != nil:
			t.Errorf("%s: %v", c.schema, err)
		case c.errs != "" && (err == nil || !strings.Contains(err.Error(), c.errs)):
			t.Errorf("%s: error %v, want one containing %q", c.schema, err, c.errs)
		}
	}
}
