// Package jsonschema validates blueprint import and export values against
// their JSON schemas with a maintained validator (drafts 4 to 2020-12),
// resolving Landscaper's `local://` (blueprint localTypes),
// `blueprint://` (files of the blueprint) and `cd://` (component resources)
// references. Error messages name the value, the schema path and the
// offending value, masked when it may be a secret.
package jsonschema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
)

// Context is where a schema's references are resolved.
type Context struct {
	// Version is the blueprint's jsonSchemaVersion; it selects the draft of
	// schemas without `$schema`.
	Version    string
	LocalTypes map[string]json.RawMessage
	Files      fs.FS
	Component  *component.Component
	// Warn receives problems Landscaper tolerates (see fragments.go); nil
	// drops them.
	Warn func(string)
}

// Draft returns the draft a jsonSchemaVersion names; empty means 2019-09,
// Landscaper's default.
func Draft(version string) (*sjs.Draft, error) {
	switch v := strings.TrimSuffix(version, "#"); {
	case v == "", strings.Contains(v, "2019-09"):
		return sjs.Draft2019, nil
	case strings.Contains(v, "2020-12"):
		return sjs.Draft2020, nil
	case strings.Contains(v, "draft-07"):
		return sjs.Draft7, nil
	case strings.Contains(v, "draft-06"):
		return sjs.Draft6, nil
	case strings.Contains(v, "draft-04"):
		return sjs.Draft4, nil
	}
	return nil, fmt.Errorf("jsonSchemaVersion %q is not a supported draft (4, 6, 7, 2019-09, 2020-12)", version)
}

// rootURL is the URL the validated schema is registered under.
const rootURL = "mem://landscaper/schema.json"

// Compile compiles schema with the references of ctx.
func Compile(ctx Context, schema json.RawMessage) (*sjs.Schema, error) {
	draft, err := Draft(ctx.Version)
	if err != nil {
		return nil, err
	}
	doc, err := sjs.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	warn := ctx.Warn
	if warn == nil {
		warn = func(string) {}
	}
	fixLooseFragments(doc, "schema", warn)
	c := sjs.NewCompiler()
	c.DefaultDraft(draft)
	c.UseLoader(sjs.SchemeURLLoader{
		"local":     fixingLoader{localLoader(ctx.LocalTypes), warn},
		"blueprint": fixingLoader{blueprintLoader{files: ctx.Files}, warn},
		"cd":        fixingLoader{componentLoader{comp: ctx.Component}, warn},
	})
	if err := c.AddResource(rootURL, doc); err != nil {
		return nil, err
	}
	compiled, err := compileSafely(c)
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %w", err)
	}
	return compiled, nil
}

// compileSafely turns a panic of the schema compiler into an error.
func compileSafely(c *sjs.Compiler) (s *sjs.Schema, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, err = nil, fmt.Errorf("schema compiler failed: %v", p)
		}
	}()
	return c.Compile(rootURL)
}

// Validate checks value against schema. what names the value in errors
// ("import \"db\""); secret masks the offending values.
func Validate(ctx Context, what string, schema json.RawMessage, value any, secret bool) error {
	compiled, err := Compile(ctx, schema)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	instance, err := normalize(value)
	if err != nil {
		return fmt.Errorf("%s: value is not JSON: %w", what, err)
	}
	err = validateSafely(compiled, instance)
	if err == nil {
		return nil
	}
	var verr *sjs.ValidationError
	if !errors.As(err, &verr) {
		return fmt.Errorf("%s: %w", what, err)
	}
	return &Error{What: what, Violations: violations(verr, instance, secret)}
}

func validateSafely(s *sjs.Schema, v any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("schema validation failed: %v", p)
		}
	}()
	return s.Validate(v)
}

// normalize converts value into the JSON data model the validator expects.
func normalize(value any) (any, error) {
	data, err := json.Marshal(value)
	if err != nil {
		return nil, err
	}
	return sjs.UnmarshalJSON(bytes.NewReader(data))
}
