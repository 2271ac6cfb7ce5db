package installation

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// A refresh that no longer finds an item drifted clears its "Drifted"
// entry and keeps every other error, and the entries still drifted.
func TestClearRepaired(t *testing.T) {
	m := shared.InstallationModel{DeployItemErrors: types.MapValueMust(types.StringType, map[string]attr.Value{
		"app/put-back": types.StringValue("Drifted: ConfigMap x no longer exists"),
		"app/still":    types.StringValue("Drifted: ConfigMap y changed"),
		"app/failed":   types.StringValue("Failed: denied"),
		"app/deleting": types.StringValue("DeleteFailed: Drifted: quoted"),
	})}
	var diags diag.Diagnostics
	if !clearRepaired(&m, map[string]string{"app/still": "changed"}, &diags) || diags.HasError() {
		t.Fatalf("nothing cleared: %v", diags)
	}
	got := m.DeployItemErrors.Elements()
	if _, ok := got["app/put-back"]; ok || len(got) != 3 {
		t.Errorf("deploy_item_errors = %v, want app/put-back cleared and the other three kept", got)
	}
	if clearRepaired(&m, map[string]string{"app/still": "changed"}, &diags) {
		t.Error("a second refresh with the same drift changed the state again")
	}
}
