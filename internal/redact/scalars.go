package redact

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strconv"
)

// scalarForms returns the text forms of a number a message may show: its
// decimal digits (strconv, JSON, YAML, sigs.k8s.io/yaml), Go's %v and %#v
// (templates print a float64 from a JSON document as 7.3920184e+07) and
// the exponent form. A number that arrives as one type is often printed as
// another — every JSON number becomes a float64 — so an integer gets its
// float forms too, and a json.Number both. ok is false for anything but a
// number.
func scalarForms(v any) (forms []string, ok bool) {
	switch x := v.(type) {
	case json.Number:
		forms = append(forms, string(x))
		if i, err := x.Int64(); err == nil {
			forms = append(forms, intForms(i)...)
		}
		if f, err := x.Float64(); err == nil {
			forms = append(forms, floatForms(f, 64)...)
		}
		return forms, true
	case float32:
		return floatForms(float64(x), 32), true
	case float64:
		return floatForms(x, 64), true
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intForms(rv.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u := rv.Uint()
		return append([]string{strconv.FormatUint(u, 10)}, floatForms(float64(u), 64)...), true
	case reflect.Float32, reflect.Float64:
		return floatForms(rv.Float(), rv.Type().Bits()), true
	}
	return nil, false
}

func intForms(i int64) []string {
	return append([]string{strconv.FormatInt(i, 10)}, floatForms(float64(i), 64)...)
}

// floatForms are f printed by strconv ('f', 'g', 'e'), fmt (%v, %#v) and
// encoding/json; an integral f also without its fraction.
func floatForms(f float64, bits int) []string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil // no decoder yields them; "NaN" is no secret
	}
	forms := []string{
		strconv.FormatFloat(f, 'f', -1, bits),
		strconv.FormatFloat(f, 'g', -1, bits),
		strconv.FormatFloat(f, 'e', -1, bits),
	}
	if bits == 32 {
		forms = append(forms, fmt.Sprint(float32(f)), fmt.Sprintf("%#v", float32(f)))
	} else {
		forms = append(forms, fmt.Sprint(f), fmt.Sprintf("%#v", f))
		if b, err := json.Marshal(f); err == nil {
			forms = append(forms, string(b))
		}
	}
	return forms
}

// walkReflect calls walk for every element of a map, slice or array of
// another type than AddValue's fast paths (map[string]int, []string, …)
// and for what a pointer or interface holds.
func walkReflect(rv reflect.Value, walk func(any)) {
	switch rv.Kind() {
	case reflect.Map:
		it := rv.MapRange()
		for it.Next() {
			walk(valueOf(it.Value()))
		}
	case reflect.Slice, reflect.Array:
		for i := range rv.Len() {
			walk(valueOf(rv.Index(i)))
		}
	case reflect.Pointer, reflect.Interface:
		if !rv.IsNil() {
			walk(valueOf(rv.Elem()))
		}
	case reflect.String:
		walk(rv.String())
	}
}

// valueOf is rv's value, or nil where reflection may not read it.
func valueOf(rv reflect.Value) any {
	if !rv.IsValid() || !rv.CanInterface() {
		return nil
	}
	return rv.Interface()
}
