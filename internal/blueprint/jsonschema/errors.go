package jsonschema

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// maxShownValue bounds how much of an offending value an error shows.
const maxShownValue = 64

// maxMessage bounds a validator message (some quote the value).
const maxMessage = 160

// maxViolations bounds how many violations one error lists.
const maxViolations = 10

var printer = message.NewPrinter(language.English)

// secretLike matches names of values that may hold credentials; their
// values never appear in errors.
var secretLike = lazyregexp.New(`(?i)secret|password|passwd|token|credential|kubeconfig|private|apikey|api_key|cert|auth`)

// LooksSecret reports whether a name suggests a secret value.
func LooksSecret(name string) bool { return secretLike().MatchString(name) }

// Error is a failed validation: every violated constraint.
type Error struct {
	What       string
	Violations []Violation
}

// Violation is one violated schema constraint.
type Violation struct {
	// InstancePath is the JSON pointer of the offending value ("" = root).
	InstancePath string
	// SchemaPath is the JSON pointer of the violated keyword in the schema,
	// prefixed by the referenced schema's URL when it is not the root.
	SchemaPath string
	Message    string
	// Value is a short rendering of the offending value, or "<masked>".
	Value string
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s does not match its schema:", e.What)
	for _, v := range e.Violations {
		path := v.InstancePath
		if path == "" {
			path = "/"
		}
		fmt.Fprintf(&b, " [value at %s (schema %s): %s; got %s]", path, v.SchemaPath, v.Message, v.Value)
	}
	return b.String()
}

// violations flattens the validator's error tree into its leaves.
func violations(root *sjs.ValidationError, instance any, secret bool) []Violation {
	var out []Violation
	var walk func(e *sjs.ValidationError)
	walk = func(e *sjs.ValidationError) {
		if len(out) >= maxViolations {
			return
		}
		if len(e.Causes) > 0 {
			for _, c := range e.Causes {
				walk(c)
			}
			return
		}
		v := Violation{
			InstancePath: pointer(e.InstanceLocation),
			SchemaPath:   schemaPath(e),
			Message:      "violates " + lastKeyword(e),
			Value:        shape(valueAt(instance, e.InstanceLocation)),
		}
		// Values never appear in errors (any import may be a secret, and
		// Terraform does not tell the provider which are sensitive): only
		// messages that quote nothing but the schema are kept; those of
		// pattern, format, minimum… quote the value.
		if quotesOnlySchema[lastKeyword(e)] && !secret {
			v.Message = e.ErrorKind.LocalizedString(printer)
			if len(v.Message) > maxMessage {
				v.Message = v.Message[:maxMessage] + "…"
			}
		}
		out = append(out, v)
	}
	walk(root)
	return out
}

// quotesOnlySchema are the keywords whose messages name the schema's
// constraint and the value's type or size, never the value.
var quotesOnlySchema = map[string]bool{
	"type": true, "required": true, "additionalProperties": true, "enum": true, "const": true,
	"minLength": true, "maxLength": true, "minItems": true, "maxItems": true,
	"minProperties": true, "maxProperties": true, "dependentRequired": true, "false": true,
}

func lastKeyword(e *sjs.ValidationError) string {
	kw := e.ErrorKind.KeywordPath()
	if len(kw) == 0 {
		return "the schema"
	}
	return kw[len(kw)-1]
}

func pointer(tokens []string) string {
	if len(tokens) == 0 {
		return ""
	}
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

func schemaPath(e *sjs.ValidationError) string {
	url := strings.TrimPrefix(e.SchemaURL, rootURL)
	return url + pointer(e.ErrorKind.KeywordPath())
}

// valueAt is the value at path, nil when there is none.
func valueAt(instance any, path []string) any {
	v := instance
	for _, tok := range path {
		switch c := v.(type) {
		case map[string]any:
			v = c[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			v = c[i]
		default:
			return nil
		}
	}
	return v
}

// shape describes a value without showing it: its type and size.
func shape(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return fmt.Sprintf("a string of %d bytes", len(x))
	case bool:
		return "a boolean"
	case float64, json.Number, int, int64:
		return "a number"
	case map[string]any:
		return fmt.Sprintf("an object with %d keys", len(x))
	case []any:
		return fmt.Sprintf("a list of %d items", len(x))
	}
	return fmt.Sprintf("a %T", v)
}

// Summarize renders v as JSON, cut to a short prefix with its size.
func Summarize(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%T>", v)
	}
	if len(data) <= maxShownValue {
		return string(data)
	}
	return fmt.Sprintf("%s… (%d bytes)", data[:maxShownValue], len(data))
}
