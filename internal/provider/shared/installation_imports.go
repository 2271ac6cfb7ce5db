package shared

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
)

// ErrHostImportsAtPlan stops rendering without a host cluster (the
// landscaper_rendered_installation data source): Secret and ConfigMap
// imports cannot be read there.
var ErrHostImportsAtPlan = errors.New("secret and config map imports need the provider's host cluster")

// HostReadError is a Secret or ConfigMap import that could not be read
// from the host cluster. Apply fails on it; a plan leaves what depends on
// the imports unknown, because the object may be created by the same
// apply (NotFound) or the cluster may be reachable only from where apply
// runs.
type HostReadError struct{ err error }

func (e *HostReadError) Error() string { return e.err.Error() }
func (e *HostReadError) Unwrap() error { return e.err }

// ReadImports converts the imports attribute, reading Secret and
// ConfigMap imports through host — at plan as at apply, so that a plan is
// empty when nothing changed and shows an update when a value did. host
// is nil only for the data source; then such imports make it return
// errHostImportsAtPlan.
func ReadImports(ctx context.Context, m InstallationModel, host *hostaccess.HostCluster) (blueprint.Imports, error) {
	in := blueprint.Imports{
		Data:        map[string]any{},
		Targets:     map[string]api.Target{},
		TargetLists: map[string][]api.Target{},
		TargetMaps:  map[string]map[string]api.Target{},
	}
	if err := ProviderTargets(ctx, m, in.Targets); err != nil {
		return in, err
	}
	var im ImportsModel
	if ok, err := AsObject(ctx, m.Imports, &im, path.Root("imports")); err != nil || !ok {
		return in, err
	}
	base := path.Root("imports")

	data, err := GoValue(ctx, im.Data.UnderlyingValue())
	if err != nil {
		return in, AttrErr(base.AtName("data"), err)
	}
	if data != nil {
		obj, ok := data.(map[string]any)
		if !ok {
			return in, AttrErr(base.AtName("data"), errors.New("must be an object of import name → value"))
		}
		in.Data = obj
	}
	wo, err := writeOnlyData(ctx, im, in.Data)
	if err != nil {
		return in, err
	}
	maps.Copy(in.Data, wo)

	var targets map[string]types.String
	if err := mapElements(ctx, im.Targets, &targets); err != nil {
		return in, err
	}
	for name, v := range targets {
		if v.IsUnknown() {
			return in, ErrUnknownValue
		}
		t, err := ParseTarget(v.ValueString(), base.AtName("targets").AtMapKey(name))
		if err != nil {
			return in, err
		}
		if _, dup := in.Targets[name]; dup {
			return in, AttrMsg(base.AtName("targets").AtMapKey(name), fmt.Sprintf("import %q is also in provider_targets", name))
		}
		in.Targets[name] = t
	}

	var lists map[string][]types.String
	if err := mapElements(ctx, im.TargetLists, &lists); err != nil {
		return in, err
	}
	for name, list := range lists {
		for i, v := range list {
			if v.IsUnknown() {
				return in, ErrUnknownValue
			}
			t, err := ParseTarget(v.ValueString(), base.AtName("target_lists").AtMapKey(name).AtListIndex(i))
			if err != nil {
				return in, err
			}
			in.TargetLists[name] = append(in.TargetLists[name], t)
		}
	}

	var maps map[string]map[string]types.String
	if err := mapElements(ctx, im.TargetMaps, &maps); err != nil {
		return in, err
	}
	for name, entries := range maps {
		in.TargetMaps[name] = map[string]api.Target{}
		for key, v := range entries {
			if v.IsUnknown() {
				return in, ErrUnknownValue
			}
			t, err := ParseTarget(v.ValueString(), base.AtName("target_maps").AtMapKey(name).AtMapKey(key))
			if err != nil {
				return in, err
			}
			in.TargetMaps[name][key] = t
		}
	}

	for _, src := range []struct {
		attr string
		m    types.Map
		read func(*hostaccess.HostCluster, context.Context, hostaccess.ObjectRef) (any, error)
	}{
		{"secrets", im.Secrets, (*hostaccess.HostCluster).ReadSecret},
		{"config_maps", im.ConfigMaps, (*hostaccess.HostCluster).ReadConfigMap},
	} {
		var refs map[string]ObjectRefModel
		if err := mapElements(ctx, src.m, &refs); err != nil {
			return in, err
		}
		if len(refs) == 0 {
			continue
		}
		if host == nil {
			return in, ErrHostImportsAtPlan
		}
		for name, r := range refs {
			if r.Name.IsUnknown() || r.Namespace.IsUnknown() || r.Key.IsUnknown() {
				return in, ErrUnknownValue
			}
			v, err := src.read(host, ctx, hostaccess.ObjectRef{Name: r.Name.ValueString(), Namespace: r.Namespace.ValueString(), Key: r.Key.ValueString()})
			if err != nil {
				return in, AttrErr(base.AtName(src.attr).AtMapKey(name), &HostReadError{err})
			}
			in.Data[name] = v
		}
	}
	return in, nil
}

// mapElements decodes a map attribute; unknown maps or elements yield errUnknownValue.
func mapElements(ctx context.Context, m types.Map, target any) error {
	if m.IsNull() {
		return nil
	}
	if m.IsUnknown() {
		return ErrUnknownValue
	}
	if d := m.ElementsAs(ctx, target, false); d.HasError() {
		return ErrUnknownValue
	}
	return nil
}

// ParseTarget decodes one Target object JSON from an import attribute.
func ParseTarget(s string, p path.Path) (api.Target, error) {
	var t api.Target
	if err := json.Unmarshal([]byte(s), &t); err != nil {
		// The JSON holds credentials: report where, not what.
		return t, AttrErr(p, errors.New("not a Target object (pass landscaper_target.<name>.target or a target export)"))
	}
	if t.Spec.Type == "" {
		return t, AttrErr(p, errors.New("the Target object has no spec.type"))
	}
	return t, AttrErr(p, api.UnsupportedClusterConfig(t))
}
