package installation

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// v0State is a state of schema version 0 whose deploy_item_objects holds
// objects, one string per item.
func v0State(t *testing.T, objects types.String) tfsdk.State {
	t.Helper()
	ctx := context.Background()
	s := installationResourceSchema()
	st := tfsdk.State{Schema: s, Raw: tftypes.NewValue(s.Type().TerraformType(ctx), nil)}
	if d := st.SetAttribute(ctx, path.Root("name"), types.StringValue("app")); d.HasError() {
		t.Fatal(d)
	}
	if d := st.SetAttribute(ctx, path.Root("deploy_item_objects"), objects); d.HasError() {
		t.Fatal(d)
	}
	return st
}

// TestUpgradeState_FromV0: a state of version 0 comes out of the upgrader
// with deploy_item_objects in version 1's shape, the same texts, and
// every other attribute as it was; a null value stays null.
func TestUpgradeState_FromV0(t *testing.T) {
	ctx := context.Background()
	old := `{"root/app":"# apps/v1 Deployment apps/web\napiVersion: apps/v1\nkind: Deployment\n---\n# v1 Service apps/web\nkind: Service\n","root/none":""}`
	up, ok := (&InstallationResource{}).UpgradeState(ctx)[0]
	if !ok || up.PriorSchema == nil || shared.InstallationSchemaVersion != 1 {
		t.Fatalf("no upgrader from version 0 to %d", shared.InstallationSchemaVersion)
	}
	for _, tc := range []struct {
		in, want types.String
	}{
		{types.StringValue(old), types.StringValue(`{"root/app":{"apps/v1 Deployment apps/web":["apiVersion: apps/v1","kind: Deployment"],` +
			`"v1 Service apps/web":["kind: Service"]},"root/none":{}}`)},
		{types.StringNull(), types.StringNull()},
	} {
		prior := v0State(t, tc.in)
		req := resource.UpgradeStateRequest{State: &prior}
		resp := resource.UpgradeStateResponse{State: tfsdk.State{Schema: installationResourceSchema()}}
		up.StateUpgrader(ctx, req, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatal(resp.Diagnostics)
		}
		var got shared.InstallationModel
		if d := resp.State.Get(ctx, &got); d.HasError() {
			t.Fatal(d)
		}
		if !got.DeployItemObjects.Equal(tc.want) || got.Name.ValueString() != "app" {
			t.Errorf("upgraded to %s (name %s), want %s", got.DeployItemObjects, got.Name, tc.want)
		}
		if before, _ := shared.ParseTexts(tc.in); len(before) > 0 {
			after, _ := shared.ParseTexts(got.DeployItemObjects)
			for p, text := range before {
				if after[p] != text {
					t.Errorf("%s: %q after the upgrade, %q before", p, after[p], text)
				}
			}
		}
	}
}
