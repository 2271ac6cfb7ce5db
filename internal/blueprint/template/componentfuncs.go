package template

import (
	"encoding/json"
	"fmt"

	"github.com/mandelsoft/spiff/dynaml"
	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
)

// lookupFunc is a template function over plain Go values, adapted below to
// GoTemplate's and Spiff's calling conventions so both behave the same.
type lookupFunc func(args []any) (any, error)

// sharedLookups are Landscaper's component (and cluster) functions, shared
// by both engines.
func sharedLookups(req Request) map[string]lookupFunc {
	c := req.Component
	lookups := map[string]lookupFunc{
		"getResource": func(args []any) (any, error) {
			cd, sel, err := selectorArgs("getResource", args)
			if err != nil {
				return nil, err
			}
			res, err := c.SelectResources(cd, sel)
			if err != nil {
				return nil, fmt.Errorf("getResource: %w", err)
			}
			return res[0], nil
		},
		"getResources": func(args []any) (any, error) {
			cd, sel, err := selectorArgs("getResources", args)
			if err != nil {
				return nil, err
			}
			res, err := c.SelectResources(cd, sel)
			if err != nil {
				return nil, fmt.Errorf("getResources: %w", err)
			}
			out := make([]any, len(res))
			for i, r := range res {
				out[i] = r
			}
			return out, nil
		},
		"getComponent": func(args []any) (any, error) {
			cd, sel, err := selectorArgs("getComponent", args)
			if err != nil {
				return nil, err
			}
			res, err := c.SelectComponents(cd, sel)
			if err != nil {
				return nil, fmt.Errorf("getComponent: %w", err)
			}
			return res[0], nil
		},
		"getRepositoryContext": func(args []any) (any, error) {
			if len(args) != 1 {
				return nil, fmt.Errorf("getRepositoryContext: want 1 argument (a component descriptor), got %d", len(args))
			}
			cd, _ := args[0].(map[string]any)
			ctx, err := component.RepositoryContext(cd)
			if err != nil {
				return nil, fmt.Errorf("getRepositoryContext: %w", err)
			}
			return ctx, nil
		},
		"getResourceKey": func(args []any) (any, error) {
			ref, err := referenceArg("getResourceKey", args)
			if err != nil {
				return nil, err
			}
			key, err := c.ResourceKey(ref)
			if err != nil {
				return nil, fmt.Errorf("getResourceKey: %w", err)
			}
			return key, nil
		},
		"getResourceContent": func(args []any) (any, error) {
			ref, err := referenceArg("getResourceContent", args)
			if err != nil {
				return nil, err
			}
			content, err := c.ResourceContent(ref)
			if err != nil {
				return nil, fmt.Errorf("getResourceContent: %w", err)
			}
			return content, nil
		},
	}
	for name, fn := range clusterLookups(req) {
		lookups[name] = fn
	}
	return lookups
}

// selectorArgs reads `[cd,] key, value, …`.
func selectorArgs(fn string, args []any) (map[string]any, component.Selector, error) {
	var cd map[string]any
	if len(args) > 0 {
		if m, ok := args[0].(map[string]any); ok {
			cd, args = m, args[1:]
		} else if args[0] == nil && len(args)%2 == 1 {
			// `.cd` of an installation without component descriptor.
			return nil, nil, fmt.Errorf("%s: %w", fn, component.ErrNoComponent)
		}
	}
	if len(args) < 2 || len(args)%2 != 0 {
		return nil, nil, fmt.Errorf("%s: want [descriptor,] followed by key/value pairs", fn)
	}
	sel := component.Selector{}
	for i := 0; i < len(args); i += 2 {
		k, ok1 := args[i].(string)
		v, ok2 := args[i+1].(string)
		if !ok1 || !ok2 {
			return nil, nil, fmt.Errorf("%s: selector keys and values must be strings (argument %d)", fn, i+1)
		}
		sel[k] = v
	}
	return cd, sel, nil
}

// referenceArg reads the single resource reference argument; a structured
// relative artifact reference is accepted as its JSON form.
func referenceArg(fn string, args []any) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("%s: want 1 argument (a resource reference), got %d", fn, len(args))
	}
	if s, ok := args[0].(string); ok {
		return s, nil
	}
	data, err := json.Marshal(args[0])
	if err != nil {
		return "", fmt.Errorf("%s: reference: %w", fn, err)
	}
	return string(data), nil
}

// componentFuncs adapts the look-ups to GoTemplate functions.
func componentFuncs(req Request) map[string]any {
	out := map[string]any{}
	for name, fn := range sharedLookups(req) {
		out[name] = func(args ...any) (any, error) { return fn(args) }
	}
	return out
}

// registerSpiffFuncs adds the look-ups and the OCI functions to Spiff.
func registerSpiffFuncs(functions spiffing.Functions, req Request) {
	lookups := sharedLookups(req)
	lookups["parseOCIRef"] = func(args []any) (any, error) {
		ref, err := stringArg("parseOCIRef", args)
		if err != nil {
			return nil, err
		}
		parts, err := ParseOCIRef(ref)
		return []any{parts[0], parts[1]}, err
	}
	lookups["ociRefRepo"] = func(args []any) (any, error) {
		ref, err := stringArg("ociRefRepo", args)
		if err != nil {
			return nil, err
		}
		parts, err := ParseOCIRef(ref)
		return parts[0], err
	}
	lookups["ociRefVersion"] = func(args []any) (any, error) {
		ref, err := stringArg("ociRefVersion", args)
		if err != nil {
			return nil, err
		}
		parts, err := ParseOCIRef(ref)
		return parts[1], err
	}
	for name, fn := range lookups {
		functions.RegisterFunction(name, spiffFunc(fn))
	}
}

func stringArg(fn string, args []any) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("%s: want 1 argument, got %d", fn, len(args))
	}
	s, ok := args[0].(string)
	if !ok {
		return "", fmt.Errorf("%s: argument must be a string", fn)
	}
	return s, nil
}

// spiffFunc converts Spiff arguments to plain values, calls fn and turns
// the result back into Spiff nodes.
func spiffFunc(fn lookupFunc) dynaml.Function {
	return func(arguments []any, binding dynaml.Binding) (any, dynaml.EvaluationInfo, bool) {
		info := dynaml.DefaultInfo()
		data, err := spiffyaml.Marshal(spiffyaml.NewNode(arguments, ""))
		if err != nil {
			return info.Error(err.Error())
		}
		var args []any
		if err := yaml.Unmarshal(data, &args); err != nil {
			return info.Error(err.Error())
		}
		result, err := fn(args)
		if err != nil {
			return info.Error(err.Error())
		}
		out, err := json.Marshal(result)
		if err != nil {
			return info.Error(err.Error())
		}
		node, err := spiffyaml.Parse("", out)
		if err != nil {
			return info.Error(err.Error())
		}
		flowed, err := binding.Flow(node, false)
		if err != nil {
			return info.Error(err.Error())
		}
		return flowed.Value(), info, true
	}
}
