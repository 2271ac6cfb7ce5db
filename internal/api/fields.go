package api

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

// The configurations blueprints write are decoded leniently, as Landscaper
// decodes them, so a field no reader declares would vanish without a
// word. UnknownFields names such fields; FieldPaths lists the ones a type
// declares, for the tables that say what becomes of each.

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// UnknownFields lists the object keys of v (decoded JSON) that the Go type
// t does not declare, as "path: unknown field", sorted, each path below
// prefix ("a.b[2].c"). A json.RawMessage field is opaque: nothing below it
// is checked.
func UnknownFields(v any, t reflect.Type, prefix string) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType {
		return nil
	}
	var out []string
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		fields := jsonFields(t)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			ft, known := fields[k]
			p := JoinPath(prefix, k)
			if !known {
				out = append(out, p+": unknown field")
				continue
			}
			out = append(out, UnknownFields(obj[k], ft, p)...)
		}
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return nil
		}
		for i, e := range list {
			out = append(out, UnknownFields(e, t.Elem(), fmt.Sprintf("%s[%d]", prefix, i))...)
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for k, e := range obj {
			out = append(out, UnknownFields(e, t.Elem(), JoinPath(prefix, k))...)
		}
		sort.Strings(out)
	}
	return out
}

// FieldPaths lists every field path the Go type t declares, in the form
// "a.b[].c" (a list's elements as "[]"), depth first in declaration
// order. A path for which stop returns true is listed but not descended
// into; nor is a json.RawMessage, a map (its keys are data, not fields)
// or a type that decodes itself without declaring JSON fields (a
// duration read from a string).
func FieldPaths(t reflect.Type, stop func(path string) bool) []string {
	var out []string
	var walk func(t reflect.Type, prefix string)
	walk = func(t reflect.Type, prefix string) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			if t.Kind() == reflect.Slice {
				if t == rawMessageType {
					return
				}
				prefix += "[]"
			}
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || opaque(t) {
			return
		}
		for _, f := range orderedFields(t) {
			p := JoinPath(prefix, f.name)
			out = append(out, p)
			if stop == nil || !stop(p) {
				walk(f.typ, p)
			}
		}
	}
	walk(t, "")
	return out
}

var unmarshalerType = reflect.TypeOf((*json.Unmarshaler)(nil)).Elem()

// opaque reports whether struct type t decodes itself (json.Unmarshaler)
// and declares no field by a json tag, so its Go fields are not fields of
// the JSON it reads.
func opaque(t reflect.Type) bool {
	if !reflect.PointerTo(t).Implements(unmarshalerType) {
		return false
	}
	for i := 0; i < t.NumField(); i++ {
		if t.Field(i).Tag.Get("json") != "" {
			return false
		}
	}
	return true
}

type jsonField struct {
	name string
	typ  reflect.Type
}

// orderedFields are t's JSON fields (embedded structs inlined) in
// declaration order.
func orderedFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case name == "-":
		case f.Anonymous && name == "":
			out = append(out, orderedFields(f.Type)...)
		case !f.IsExported():
		case name == "":
			out = append(out, jsonField{f.Name, f.Type})
		default:
			out = append(out, jsonField{name, f.Type})
		}
	}
	return out
}

// jsonFields maps the JSON names of t's fields to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for _, f := range orderedFields(t) {
		fields[f.name] = f.typ
	}
	return fields
}

// JoinPath appends key to a field path ("a.b" + "c" = "a.b.c").
func JoinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
