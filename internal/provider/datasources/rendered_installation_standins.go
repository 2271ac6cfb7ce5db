package datasources

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// subinstallationExportsAttribute is the data source's stand-in exports:
// what `landscaper-cli blueprints render -e` took from installation export
// templates, so blueprints whose subinstallations import each other's
// exports render without an apply.
func subinstallationExportsAttribute() schema.DynamicAttribute {
	return schema.DynamicAttribute{Optional: true, Sensitive: true,
		MarkdownDescription: "Exports standing in for subinstallations that are then not rendered, as " +
			"`landscaper-cli blueprints render` took them from installation export templates: an object of " +
			"subinstallation path (as in `subinstallations_pending`, e.g. `<name>/shoot`) → `{ data = { <export> = value }, " +
			"targets = { <export> = Target object (or its JSON) } }`, by the export names of its blueprint. They reach its " +
			"siblings through its template's `exports`, so subinstallations that import them render instead of waiting " +
			"for an apply. Sensitive: targets hold credentials."}
}

// standIns reads subinstallation_exports.
func standIns(ctx context.Context, v types.Dynamic, p path.Path) (map[string]engine.StandIn, error) {
	g, err := shared.GoValue(ctx, v.UnderlyingValue())
	if err != nil || g == nil {
		return nil, err
	}
	byPath, ok := g.(map[string]any)
	if !ok {
		return nil, shared.AttrErr(p, errors.New("must be an object of subinstallation path → { data, targets }"))
	}
	out := make(map[string]engine.StandIn, len(byPath))
	for _, sub := range sortedKeys(byPath) {
		sp := p.AtMapKey(sub)
		obj, ok := byPath[sub].(map[string]any)
		if !ok {
			return nil, shared.AttrErr(sp, fmt.Errorf("%q: must be an object with `data` and/or `targets`", sub))
		}
		in := engine.StandIn{Data: map[string]any{}, Targets: map[string]api.Target{}}
		for _, k := range sortedKeys(obj) {
			m, ok := obj[k].(map[string]any)
			if obj[k] != nil && !ok {
				return nil, shared.AttrErr(sp.AtMapKey(k), fmt.Errorf("%q: %s must be an object of export name → value", sub, k))
			}
			switch k {
			case "data":
				for name, val := range m {
					in.Data[name] = val
				}
			case "targets":
				for name, val := range m {
					t, err := standInTarget(val, sp.AtMapKey(k).AtMapKey(name))
					if err != nil {
						return nil, fmt.Errorf("%q: target %q: %w", sub, name, err)
					}
					in.Targets[name] = t
				}
			default:
				return nil, shared.AttrErr(sp.AtMapKey(k), fmt.Errorf("%q: unknown key %q: only `data` and `targets`", sub, k))
			}
		}
		out[sub] = in
	}
	return out, nil
}

// standInTarget is a Target given as its JSON (landscaper_target.x.target,
// a target export) or as an object.
func standInTarget(v any, p path.Path) (api.Target, error) {
	s, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			return api.Target{}, shared.AttrErr(p, errors.New("not a Target object"))
		}
		s = string(b)
	}
	return shared.ParseTarget(s, p)
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
