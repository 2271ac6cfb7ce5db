package blueprint

import (
	"reflect"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// UnknownFields lists the object keys of v (decoded JSON) that the Go
// type t does not declare, as "path: unknown field", sorted. Readers of
// other Landscaper objects (internal/landscaperyaml) check with it too.
func UnknownFields(v any, t reflect.Type) []string { return api.UnknownFields(v, t, "") }

// unknownFields lists the object keys of v that the Go type t does not
// declare, as "path: unknown field" warnings, so a misspelt field is never
// silently ignored.
func unknownFields(v any, t reflect.Type, path string) []string { return api.UnknownFields(v, t, path) }
