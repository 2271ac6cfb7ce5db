package installation

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

func stringMap(t *testing.T, m map[string]string) types.Map {
	t.Helper()
	v, d := types.MapValueFrom(context.Background(), types.StringType, m)
	if d.HasError() {
		t.Fatal(d)
	}
	return v
}

// A reference stays what state has for the import name; a new name gets
// a new one; no provider_targets, no references.
func TestProviderTargetReferences_sticky(t *testing.T) {
	ctx := context.Background()
	plan := shared.InstallationModel{ProviderTargets: stringMap(t, map[string]string{"cluster": "cluster"})}
	if p := shared.WithProviderTargetReferences(ctx, plan, nil, false); !p.ProviderTargetReferences.IsUnknown() {
		t.Errorf("a plan drew a reference: %v", p.ProviderTargetReferences)
	}
	first := shared.WithProviderTargetReferences(ctx, plan, nil, true)
	refs := first.ProviderTargetReferences.Elements()
	ref, _ := refs["cluster"].(types.String)
	if len(refs) != 1 || ref.ValueString() == "" {
		t.Fatalf("a new provider target has no reference: %v", refs)
	}
	plan.ProviderTargets = stringMap(t, map[string]string{"cluster": "cluster", "other": "prod"})
	if p := shared.WithProviderTargetReferences(ctx, plan, &first, false); !p.ProviderTargetReferences.IsUnknown() {
		t.Errorf("a plan drew a reference for a new import name: %v", p.ProviderTargetReferences)
	}
	second := shared.WithProviderTargetReferences(ctx, plan, &first, true)
	refs2 := second.ProviderTargetReferences.Elements()
	if !refs2["cluster"].Equal(ref) {
		t.Errorf("the reference of cluster changed from one plan to the next: %v → %v", ref, refs2["cluster"])
	}
	if o, _ := refs2["other"].(types.String); o.ValueString() == "" || o.Equal(ref) {
		t.Errorf("the new import has no reference of its own: %v", refs2)
	}
	if v := shared.WithProviderTargetReferences(ctx, shared.InstallationModel{ProviderTargets: types.MapNull(types.StringType)}, &second, true); !v.ProviderTargetReferences.IsNull() {
		t.Errorf("references without provider_targets: %v", v.ProviderTargetReferences)
	}
	if v := shared.WithProviderTargetReferences(ctx, shared.InstallationModel{ProviderTargets: types.MapUnknown(types.StringType)}, &second, true); !v.ProviderTargetReferences.IsUnknown() {
		t.Errorf("references of unknown provider_targets are known: %v", v.ProviderTargetReferences)
	}
}

// The Targets built carry the entry's name and the reference, hold no
// configuration, are written in the configuration (trusted), and an
// import name may not be both in provider_targets and imports.targets.
func TestProviderTargets_targets(t *testing.T) {
	ctx := context.Background()
	m := shared.InstallationModel{
		ProviderTargets:          stringMap(t, map[string]string{"cluster": "prod"}),
		ProviderTargetReferences: stringMap(t, map[string]string{"cluster": "ref-1"}),
	}
	in, err := shared.ReadImports(ctx, m, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := in.Targets["cluster"]
	if got.Metadata.Name != "prod" || got.Spec.Type != api.KubernetesClusterTargetType || len(got.Spec.Config) != 0 ||
		got.Metadata.Annotations[api.KubeconfigFromProviderAnnotation] != "ref-1" {
		t.Fatalf("provider target is %+v", got)
	}
	if !shared.IsProviderTarget(m, got) {
		t.Error("the provider target is not recognised as written in the configuration")
	}
	forged := got
	forged.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: "guessed"}
	if shared.IsProviderTarget(m, forged) {
		t.Error("a Target with another reference passes as the configuration's")
	}

	m.ProviderTargetReferences = types.MapNull(types.StringType)
	if _, err := shared.ReadImports(ctx, m, nil); err == nil || !strings.Contains(err.Error(), "provider_target_references") {
		t.Errorf("a provider target without reference: %v", err)
	}

	m.ProviderTargetReferences = stringMap(t, map[string]string{"cluster": "ref-1"})
	importTypes := shared.InstallationAttrTypes(ctx)["imports"].(types.ObjectType).AttrTypes
	values := map[string]attr.Value{}
	for name, typ := range importTypes {
		v, err := typ.ValueFromTerraform(ctx, tftypes.NewValue(typ.TerraformType(ctx), nil))
		if err != nil {
			t.Fatal(err)
		}
		values[name] = v
	}
	values["targets"] = stringMap(t, map[string]string{"cluster": `{"spec":{"type":"` + api.KubernetesClusterTargetType + `"}}`})
	imports, d := types.ObjectValue(importTypes, values)
	if d.HasError() {
		t.Fatal(d)
	}
	m.Imports = imports
	if _, err := shared.ReadImports(ctx, m, nil); err == nil || !strings.Contains(err.Error(), "also in provider_targets") {
		t.Errorf("an import in both provider_targets and imports.targets: %v", err)
	}
}
