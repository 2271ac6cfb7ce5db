package shared

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"sort"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Imports and exports carry arbitrary JSON-like values. This file converts
// between Terraform values (objects, tuples, maps, lists, numbers …) and
// the plain Go values the engine works with (map[string]any, []any,
// string, int64/json.Number/float64 (goNumber), bool, nil).

// ErrUnknownValue marks a value that is not known yet (during plan).
var ErrUnknownValue = fmt.Errorf("value is not known until apply")

// GoValue converts a Terraform value to a plain Go value. It returns
// errUnknownValue if any part of it is unknown.
func GoValue(ctx context.Context, v attr.Value) (any, error) {
	if v == nil || v.IsNull() {
		return nil, nil
	}
	if v.IsUnknown() {
		return nil, ErrUnknownValue
	}
	tv, err := v.ToTerraformValue(ctx)
	if err != nil {
		return nil, err
	}
	return goValueOf(tv)
}

func goValueOf(v tftypes.Value) (any, error) {
	if !v.IsKnown() {
		return nil, ErrUnknownValue
	}
	if v.IsNull() {
		return nil, nil
	}
	t := v.Type()
	switch {
	case t.Is(tftypes.String):
		var s string
		return s, v.As(&s)
	case t.Is(tftypes.Bool):
		var b bool
		return b, v.As(&b)
	case t.Is(tftypes.Number):
		var f big.Float
		if err := v.As(&f); err != nil {
			return nil, err
		}
		return goNumber(&f), nil
	case t.Is(tftypes.Object{}) || t.Is(tftypes.Map{}):
		var m map[string]tftypes.Value
		if err := v.As(&m); err != nil {
			return nil, err
		}
		out := make(map[string]any, len(m))
		for k, e := range m {
			g, err := goValueOf(e)
			if err != nil {
				return nil, err
			}
			out[k] = g
		}
		return out, nil
	case t.Is(tftypes.List{}) || t.Is(tftypes.Tuple{}) || t.Is(tftypes.Set{}):
		var l []tftypes.Value
		if err := v.As(&l); err != nil {
			return nil, err
		}
		out := make([]any, 0, len(l))
		for _, e := range l {
			g, err := goValueOf(e)
			if err != nil {
				return nil, err
			}
			out = append(out, g)
		}
		return out, nil
	}
	return nil, fmt.Errorf("unsupported value type %s", t)
}

// goNumber is a Terraform number as the engine's values hold numbers
// (the snapshot and the template executors agree): an integer in int64's
// range as int64; anything else as float64 when that has the same
// shortest decimal form, else as a json.Number of its digits (integers
// beyond int64, decimals with more digits than float64 holds). So no
// number loses a digit on its way to the deploy items and back.
func goNumber(f *big.Float) any {
	if i, acc := f.Int64(); acc == big.Exact {
		return i
	}
	x, _ := f.Float64()
	text := f.Text('g', -1)
	if strconv.FormatFloat(x, 'g', -1, 64) == text {
		return x
	}
	if f.IsInt() {
		return json.Number(f.Text('f', -1))
	}
	return json.Number(text)
}

// DynamicValue converts a plain Go value (as decoded from JSON) to a
// Terraform dynamic value: maps become objects and slices tuples, so any
// shape round-trips.
func DynamicValue(v any) (types.Dynamic, error) {
	a, err := attrValue(v)
	if err != nil {
		return types.DynamicNull(), err
	}
	return types.DynamicValue(a), nil
}

func attrValue(v any) (attr.Value, error) {
	switch x := v.(type) {
	case nil:
		return types.StringNull(), nil
	case string:
		return types.StringValue(x), nil
	case bool:
		return types.BoolValue(x), nil
	case float64:
		return types.NumberValue(big.NewFloat(x)), nil
	case float32:
		return types.NumberValue(big.NewFloat(float64(x))), nil
	case int:
		return types.NumberValue(new(big.Float).SetInt64(int64(x))), nil
	case int64:
		return types.NumberValue(new(big.Float).SetInt64(x)), nil
	case json.Number:
		f, _, err := big.ParseFloat(string(x), 10, 512, big.ToNearestEven)
		if err != nil {
			return nil, err
		}
		return types.NumberValue(f), nil
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		attrTypes := make(map[string]attr.Type, len(x))
		attrs := make(map[string]attr.Value, len(x))
		for _, k := range keys {
			e, err := attrValue(x[k])
			if err != nil {
				return nil, fmt.Errorf("%s: %w", k, err)
			}
			attrs[k], attrTypes[k] = e, e.Type(context.Background())
		}
		o, diags := types.ObjectValue(attrTypes, attrs)
		if diags.HasError() {
			return nil, fmt.Errorf("building object: %v", diags)
		}
		return o, nil
	case []any:
		elemTypes := make([]attr.Type, len(x))
		elems := make([]attr.Value, len(x))
		for i, e := range x {
			a, err := attrValue(e)
			if err != nil {
				return nil, fmt.Errorf("[%d]: %w", i, err)
			}
			elems[i], elemTypes[i] = a, a.Type(context.Background())
		}
		t, diags := types.TupleValue(elemTypes, elems)
		if diags.HasError() {
			return nil, fmt.Errorf("building tuple: %v", diags)
		}
		return t, nil
	default:
		// Anything else (typed structs from a deployer) goes through JSON.
		b, err := json.Marshal(x)
		if err != nil {
			return nil, fmt.Errorf("unsupported value of type %T: %w", v, err)
		}
		var generic any
		if err := json.Unmarshal(b, &generic); err != nil {
			return nil, err
		}
		return attrValue(generic)
	}
}

// PartlyKnownValue is DynamicValue of an object whose attributes in
// unknown are known only after apply: each of them is an unknown of any
// type, so a plan shows the known ones and `(known after apply)` for the
// others alone.
func PartlyKnownValue(known map[string]any, unknown []string) (types.Dynamic, error) {
	attrTypes := make(map[string]attr.Type, len(known)+len(unknown))
	attrs := make(map[string]attr.Value, len(known)+len(unknown))
	for k, v := range known {
		a, err := attrValue(v)
		if err != nil {
			return types.DynamicNull(), fmt.Errorf("%s: %w", k, err)
		}
		attrs[k], attrTypes[k] = a, a.Type(context.Background())
	}
	for _, k := range unknown {
		attrs[k], attrTypes[k] = types.DynamicUnknown(), types.DynamicType
	}
	o, diags := types.ObjectValue(attrTypes, attrs)
	if diags.HasError() {
		return types.DynamicNull(), fmt.Errorf("building object: %v", diags)
	}
	return types.DynamicValue(o), nil
}
