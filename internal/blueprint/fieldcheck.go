package blueprint

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
)

var rawMessageType = reflect.TypeOf(json.RawMessage(nil))

// UnknownFields lists the object keys of v (decoded JSON) that the Go
// type t does not declare, as "path: unknown field", sorted. Readers of
// other Landscaper objects (internal/landscaperyaml) check with it too.
func UnknownFields(v any, t reflect.Type) []string { return unknownFields(v, t, "") }

// unknownFields lists the object keys of v that the Go type t does not
// declare, as "path: unknown field" warnings, so a misspelt field is never
// silently ignored.
func unknownFields(v any, t reflect.Type, path string) []string {
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
			p := joinPath(path, k)
			if !known {
				out = append(out, p+": unknown field")
				continue
			}
			out = append(out, unknownFields(obj[k], ft, p)...)
		}
	case reflect.Slice:
		list, ok := v.([]any)
		if !ok {
			return nil
		}
		for i, e := range list {
			out = append(out, unknownFields(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i))...)
		}
	case reflect.Map:
		obj, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		for k, e := range obj {
			out = append(out, unknownFields(e, t.Elem(), joinPath(path, k))...)
		}
		sort.Strings(out)
	}
	return out
}

// jsonFields maps the JSON names of t's fields (embedded structs inlined)
// to their types.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		if f.Anonymous && name == "" {
			for k, v := range jsonFields(f.Type) {
				fields[k] = v
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}
