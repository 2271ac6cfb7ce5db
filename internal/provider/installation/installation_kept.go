package installation

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// What the installation's inventory keeps of the resource for an import
// (instance.Runner.Keep): the attributes a configuration sets, and the
// computed ones a snapshot does not give, each encoded with its type
// (msgpack, as Terraform sends values), so that an import fills the state
// as the last apply left it and the plan of the same configuration is
// empty. Attributes that hold credentials are never kept: they would be
// copied into a cluster. The CLI's plan then shows them being set from
// the configuration.

// keptAttributes are the attributes kept, by schema name.
var keptAttributes = []string{
	"name", "namespace", "blueprint", "component_descriptor", "context", "manifest", "imports",
	"import_data_mappings", "export_data_mappings", "delete_without_uninstall", "timeouts",
	"sensitive_exports", "blueprint_digest", "component_digests", "provider_targets", "provider_target_references",
}

// keptResource is the provider's part of what the inventory keeps.
type keptResource struct {
	SchemaVersion int64             `json:"schemaVersion"`
	Attributes    map[string][]byte `json:"attributes"`
	// Withheld are the attributes (paths) left out: they held credentials.
	Withheld []string `json:"withheld,omitempty"`
}

// installationResourceSchema is the resource's schema, built once.
var installationResourceSchema = sync.OnceValue(func() schema.Schema {
	var resp resource.SchemaResponse
	(&InstallationResource{}).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	return resp.Schema
})

// keepOf returns what the inventory keeps of m after a job (Runner.Keep).
func keepOf(ctx context.Context, sec *shared.Security, m shared.InstallationModel) func(*engine.Snapshot) json.RawMessage {
	return func(*engine.Snapshot) json.RawMessage {
		k, err := encodeKept(ctx, sec, m)
		if err != nil {
			return nil // nothing kept: an import then fills what the items give
		}
		b, _ := json.Marshal(k) // a struct of strings and byte slices
		return b
	}
}

// encodeKept encodes the kept attributes of m, credentials withheld,
// through the masking exit (the inventory Secret is read by whoever may
// read Secrets in its namespace).
func encodeKept(ctx context.Context, sec *shared.Security, m shared.InstallationModel) (keptResource, error) {
	k := keptResource{SchemaVersion: shared.InstallationSchemaVersion, Attributes: map[string][]byte{}}
	m, k.Withheld = withoutCredentialAttributes(ctx, m)
	s := installationResourceSchema()
	objType, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		return k, errors.New("the installation schema is not an object")
	}
	st := tfsdk.State{Schema: s, Raw: tftypes.NewValue(objType, nil)}
	if d := sec.SetState(ctx, &st, &m); d.HasError() {
		return k, errors.New("encoding the installation's attributes failed")
	}
	var values map[string]tftypes.Value
	if err := st.Raw.As(&values); err != nil {
		return k, err
	}
	for _, name := range keptAttributes {
		v, ok := values[name]
		if !ok || v.IsNull() || !v.IsFullyKnown() {
			continue
		}
		dv, err := tfprotov6.NewDynamicValue(objType.AttributeTypes[name], v)
		if err != nil {
			return k, fmt.Errorf("encoding %s: %w", name, err)
		}
		k.Attributes[name] = dv.MsgPack
	}
	return k, nil
}

// decode returns the model the kept attributes make (every other
// attribute null); an attribute that no longer decodes with the schema's
// type is left null and named in the error.
func (k keptResource) decode(ctx context.Context) (shared.InstallationModel, error) {
	var m shared.InstallationModel
	s := installationResourceSchema()
	objType, ok := s.Type().TerraformType(ctx).(tftypes.Object)
	if !ok {
		return m, errors.New("the installation schema is not an object")
	}
	values := make(map[string]tftypes.Value, len(objType.AttributeTypes))
	for name, typ := range objType.AttributeTypes {
		values[name] = tftypes.NewValue(typ, nil)
	}
	var errs []error
	for _, name := range keptAttributes {
		b, ok := k.Attributes[name]
		if !ok {
			continue
		}
		v, err := (&tfprotov6.DynamicValue{MsgPack: b}).Unmarshal(objType.AttributeTypes[name])
		if err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, err))
			continue
		}
		values[name] = v
	}
	st := tfsdk.State{Schema: s, Raw: tftypes.NewValue(objType, values)}
	if d := st.Get(ctx, &m); d.HasError() {
		return m, errors.New("the kept attributes do not fit the installation's schema")
	}
	// An inventory kept by an earlier version may hold write-only values:
	// they go neither into the state nor into a list result.
	m, _ = withoutCredentialAttributes(ctx, m)
	return m, errors.Join(errs...)
}

// withoutCredentialAttributes nulls the attributes of m that hold
// credentials and names them: manifest_objects (its Targets), and each of
// imports.targets, target_lists and target_maps that holds a Target with
// a configuration of its own (a kubeconfig). Targets that only refer to a
// kubeconfig of the provider block (kubeconfig_from_provider) are kept.
func withoutCredentialAttributes(ctx context.Context, m shared.InstallationModel) (shared.InstallationModel, []string) {
	var withheld []string
	if !m.ManifestObjects.IsNull() {
		m.ManifestObjects = types.StringNull()
		withheld = append(withheld, "manifest_objects")
	}
	if m.Imports.IsNull() || m.Imports.IsUnknown() {
		return m, withheld
	}
	var im shared.ImportsModel
	if d := m.Imports.As(ctx, &im, basetypes.ObjectAsOptions{}); d.HasError() {
		m.Imports = types.ObjectNull(m.Imports.AttributeTypes(ctx))
		return m, append(withheld, "imports")
	}
	// Write-only values are never written anywhere (issue 32 item 8): an
	// apply's model holds them (shared.WithWriteOnly), the kept attributes
	// never do. Not named as withheld: the state never holds them either.
	im.DataWO = types.DynamicNull()
	for _, a := range []struct {
		name string
		v    *types.Map
	}{{"targets", &im.Targets}, {"target_lists", &im.TargetLists}, {"target_maps", &im.TargetMaps}} {
		if !a.v.IsNull() && holdsCredentials(*a.v) {
			*a.v = types.MapNull(a.v.ElementType(ctx))
			withheld = append(withheld, "imports."+a.name)
		}
	}
	obj, d := types.ObjectValueFrom(ctx, m.Imports.AttributeTypes(ctx), im)
	if d.HasError() {
		m.Imports = types.ObjectNull(m.Imports.AttributeTypes(ctx))
		return m, append(withheld, "imports")
	}
	m.Imports = obj
	return m, withheld
}

// holdsCredentials says whether a target import attribute (a map of
// Target JSON, of lists or of maps of them) holds a Target with a
// configuration of its own, or anything that is not a Target.
func holdsCredentials(v types.Map) bool {
	b, err := json.Marshal(terraformStrings(v))
	if err != nil {
		return true
	}
	var anyTargets any
	if json.Unmarshal(b, &anyTargets) != nil {
		return true
	}
	return anyConfigured(anyTargets)
}

// terraformStrings is the Go form of a (nested) map or list of strings.
func terraformStrings(v any) any {
	switch t := v.(type) {
	case types.Map:
		out := map[string]any{}
		for k, e := range t.Elements() {
			out[k] = terraformStrings(e)
		}
		return out
	case types.List:
		out := []any{}
		for _, e := range t.Elements() {
			out = append(out, terraformStrings(e))
		}
		return out
	case types.String:
		return t.ValueString()
	}
	return nil
}

// anyConfigured walks the decoded strings: each is a Target JSON.
func anyConfigured(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		for _, e := range t {
			if anyConfigured(e) {
				return true
			}
		}
		return false
	case []any:
		for _, e := range t {
			if anyConfigured(e) {
				return true
			}
		}
		return false
	case string:
		var target struct {
			Spec struct {
				Config json.RawMessage `json:"config"`
			} `json:"spec"`
		}
		if json.Unmarshal([]byte(t), &target) != nil {
			return true
		}
		return len(target.Spec.Config) > 0 && string(target.Spec.Config) != "null"
	}
	return true
}

// withDigests is m with the digests of what spec renders, as the job's
// outcome will record them: the plan may still hold them unknown.
func withDigests(m shared.InstallationModel, spec engine.RootSpec) shared.InstallationModel {
	if digest, err := hostaccess.BlueprintDigest(spec.Blueprint, spec.Component); err == nil {
		m.BlueprintDigest = types.StringValue(digest)
	}
	m.ComponentDigests = shared.ComponentDigests(spec.Component)
	return m
}
