package provider

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// stateRows reads back what deployItemList wrote, and refuses what it
// cannot read (null, unknown, an unknown element or dependency).
func TestStateRows(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	rows := []deployItemRow{
		{Installation: "app", Name: "db", Type: "landscaper.gardener.cloud/mock", Target: "cluster",
			DependsOn: []string{}, Phase: "Succeeded", ConfigHash: "h1"},
		{Installation: "app/sub", Name: "web", Type: "landscaper.gardener.cloud/helm", Target: "clusters[0]",
			DependsOn: []string{"db", "cache"}, Phase: "Failed", LastError: "boom", ConfigHash: "h2"},
	}
	list := deployItemList(rows, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	got, ok := stateRows(ctx, list)
	if !ok || !reflect.DeepEqual(got, rows) {
		t.Fatalf("read back %+v (%v), want %+v", got, ok, rows)
	}
	elemType := types.ObjectType{AttrTypes: deployItemAttrTypes}
	unknownDeps := map[string]attr.Value{}
	for k, v := range list.Elements()[0].(types.Object).Attributes() {
		unknownDeps[k] = v
	}
	unknownDeps["depends_on"] = types.ListUnknown(types.StringType)
	for name, l := range map[string]types.List{
		"null":                 types.ListNull(elemType),
		"unknown":              types.ListUnknown(elemType),
		"unknown element":      types.ListValueMust(elemType, []attr.Value{types.ObjectUnknown(deployItemAttrTypes)}),
		"unknown dependencies": types.ListValueMust(elemType, []attr.Value{types.ObjectValueMust(deployItemAttrTypes, unknownDeps)}),
	} {
		if rows, ok := stateRows(ctx, l); ok {
			t.Errorf("%s: read as %+v", name, rows)
		}
	}
}
