package installation

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// What the inventory keeps of the resource decodes to the attributes it
// was given, without those that hold credentials: manifest_objects and a
// target import with a kubeconfig of its own are withheld and named, a
// target import that refers to the provider block's kubeconfig is kept.
func TestKeptResource_roundTripWithholdsCredentials(t *testing.T) {
	ctx := context.Background()
	m, err := keptResource{}.decode(ctx) // every attribute null, typed
	if err != nil {
		t.Fatal(err)
	}
	m.Name, m.Namespace = types.StringValue("app"), types.StringValue("ns")
	m.ManifestObjects = types.StringValue("SECRET-MANIFEST")
	m.BlueprintDigest = types.StringValue("digest")
	attrTypes := m.Imports.AttributeTypes(ctx)
	nullMap := func(name string) types.Map {
		return types.MapNull(attrTypes[name].(types.MapType).ElemType)
	}
	targets := func(target string) types.Map {
		return types.MapValueMust(types.StringType, map[string]attr.Value{"cluster": types.StringValue(target)})
	}
	im := shared.ImportsModel{
		Data:        types.DynamicValue(types.StringValue("data")),
		DataWO:      types.DynamicValue(types.StringValue("SECRET-WRITE-ONLY")),
		Targets:     targets(`{"metadata":{"name":"c"},"spec":{"type":"t","config":{"kubeconfig":"SECRET-KUBECONFIG"}}}`),
		TargetLists: nullMap("target_lists"), TargetMaps: nullMap("target_maps"),
		Secrets: nullMap("secrets"), ConfigMaps: nullMap("config_maps"),
	}
	importsOf := func(im shared.ImportsModel) types.Object {
		obj, d := types.ObjectValueFrom(ctx, attrTypes, im)
		if d.HasError() {
			t.Fatal(d)
		}
		return obj
	}
	m.Imports = importsOf(im)

	k, err := encodeKept(ctx, nil, m)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(k)
	for _, needle := range []string{"SECRET-MANIFEST", "SECRET-KUBECONFIG", "SECRET-WRITE-ONLY"} {
		if strings.Contains(string(b), needle) {
			t.Errorf("what is kept holds %s", needle)
		}
	}
	if got := strings.Join(k.Withheld, ","); got != "manifest_objects,imports.targets" {
		t.Errorf("withheld = %q", got)
	}
	back, err := k.decode(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var bi shared.ImportsModel
	if d := back.Imports.As(ctx, &bi, basetypes.ObjectAsOptions{}); d.HasError() {
		t.Fatal(d)
	}
	if !back.Name.Equal(m.Name) || !back.Namespace.Equal(m.Namespace) || !back.BlueprintDigest.Equal(m.BlueprintDigest) ||
		!back.ManifestObjects.IsNull() || !bi.Targets.IsNull() || !bi.Data.Equal(im.Data) || !bi.DataWO.IsNull() {
		t.Errorf("decoded %+v, imports %+v", back, bi)
	}

	// A target that refers to the provider block's kubeconfig is kept.
	im.Targets = targets(`{"metadata":{"name":"c","annotations":{"landscaper-terraform.io/kubeconfig-from-provider":"u"}},"spec":{"type":"t"}}`)
	m.Imports = importsOf(im)
	if k, err = encodeKept(ctx, nil, m); err != nil || strings.Contains(strings.Join(k.Withheld, ","), "imports") {
		t.Errorf("a provider kubeconfig reference was withheld: %v %v", k.Withheld, err)
	}
}
