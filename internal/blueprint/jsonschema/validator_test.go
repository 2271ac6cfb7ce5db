package jsonschema

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/fstest"
)

// TestDraft_Versions proves every supported jsonSchemaVersion spelling maps
// to its draft, empty to 2019-09, and unknown versions are rejected.
func TestDraft_Versions(t *testing.T) {
	for version, want := range map[string]string{
		"": "2019-09", "https://json-schema.org/draft/2019-09/schema": "2019-09",
		"https://json-schema.org/draft/2020-12/schema": "2020-12",
		"http://json-schema.org/draft-07/schema#":      "draft-07",
		"http://json-schema.org/draft-06/schema#":      "draft-06",
		"http://json-schema.org/draft-04/schema#":      "draft-04",
	} {
		d, err := Draft(version)
		if err != nil || !strings.Contains(d.String(), want) {
			t.Errorf("%q: got %v, %v; want %s", version, d, err, want)
		}
	}
	if _, err := Draft("http://json-schema.org/draft-03/schema#"); err == nil {
		t.Error("draft-03 accepted")
	}
}

// TestValidate_References proves local://, blueprint:// and broken
// references behave: valid data passes, cycles and missing targets fail.
func TestValidate_References(t *testing.T) {
	ctx := Context{
		LocalTypes: map[string]json.RawMessage{
			"name":  json.RawMessage(`{"type": "string", "minLength": 1}`),
			"loop":  json.RawMessage(`{"$ref": "local://loop"}`),
			"tree":  json.RawMessage(`{"type": "object", "properties": {"child": {"$ref": "local://tree"}}}`),
			"files": json.RawMessage(`{"$ref": "blueprint://schemas/s.yaml"}`),
		},
		Files: fstest.MapFS{"schemas/s.yaml": {Data: []byte("type: integer\n")}},
	}
	ok := map[string]any{
		`{"$ref": "local://name"}`:  "x",
		`{"$ref": "local://tree"}`:  map[string]any{"child": map[string]any{"child": map[string]any{}}},
		`{"$ref": "local://files"}`: 3,
	}
	for schema, value := range ok {
		if err := Validate(ctx, "import \"x\"", json.RawMessage(schema), value, false); err != nil {
			t.Errorf("%s: %v", schema, err)
		}
	}
	bad := map[string]string{
		`{"$ref": "local://missing"}`:           "missing",
		`{"$ref": "local://loop"}`:              "loop",
		`{"$ref": "blueprint://../etc/passwd"}`: "blueprint://",
		`{"$ref": "cd://resources/x"}`:          "no component descriptor",
		`{"type": 5}`:                           "invalid schema",
		`not json`:                              "not JSON",
	}
	for schema, want := range bad {
		err := Validate(ctx, "import \"x\"", json.RawMessage(schema), "v", false)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `import "x"`) {
			t.Errorf("%s: want error containing %q, got %v", schema, want, err)
		}
	}
}

// TestValidate_ErrorShape proves violations carry instance path, schema
// path and the value's shape (never the value), capped in number.
func TestValidate_ErrorShape(t *testing.T) {
	items := make([]any, 50)
	for i := range items {
		items[i] = i
	}
	err := Validate(Context{}, "export \"list\"", json.RawMessage(`{"type": "array", "items": {"type": "string"}}`), items, false)
	var verr *Error
	if !errors.As(err, &verr) {
		t.Fatalf("got %v", err)
	}
	if len(verr.Violations) != maxViolations {
		t.Errorf("got %d violations, want the cap %d", len(verr.Violations), maxViolations)
	}
	v := verr.Violations[0]
	if v.InstancePath != "/0" || v.SchemaPath != "#/items/type" || v.Value != "a number" {
		t.Errorf("unexpected violation %+v", v)
	}
}

// TestSummarize_Long proves long values are cut with their size.
func TestSummarize_Long(t *testing.T) {
	got := Summarize(strings.Repeat("a", 1000))
	if len(got) > maxShownValue+30 || !strings.Contains(got, "(1002 bytes)") {
		t.Errorf("got %q", got)
	}
}
