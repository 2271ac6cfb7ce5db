package installation

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

func reconciledModel(phase string, errs map[string]string) shared.InstallationModel {
	items := map[string]attr.Value{"app/a": types.StringValue("h1"), "app/b": types.StringValue("h2")}
	e := map[string]attr.Value{}
	for k, v := range errs {
		e[k] = types.StringValue(v)
	}
	return shared.InstallationModel{Phase: types.StringValue(phase), JobID: types.StringValue("job-1"),
		DeployItems: types.MapValueMust(types.StringType, items), DeployItemErrors: types.MapValueMust(types.StringType, e)}
}

// A refresh after a failed reconcile shows phase Failed and the failed
// item's error (over what the drift check found); after a later one that
// succeeded, the installation is Succeeded again, unless the resource's
// own last job failed.
func TestApplyReconciled(t *testing.T) {
	var diags diag.Diagnostics
	scrub := func(s string) string { return strings.ReplaceAll(s, "hunter2", "***") }
	failed := &inventory.Reconciled{JobID: "job-2", Phase: api.InstallationPhaseFailed,
		Errors: map[string]string{"app/a": "denied, password hunter2", "gone/x": "not in state"}}
	m := reconciledModel("Succeeded", map[string]string{"app/a": "Drifted: missing"})
	if !applyReconciled(&m, failed, api.InstallationPhaseSucceeded, scrub, &diags) {
		t.Fatal("a failed reconcile changed nothing")
	}
	errs := m.DeployItemErrors.Elements()
	if m.Phase.ValueString() != "Failed" || len(errs) != 1 ||
		errs["app/a"].(types.String).ValueString() != "Failed: reconcile job job-2: denied, password ***" {
		t.Fatalf("after a failed reconcile: phase %s, errors %v", m.Phase, errs)
	}
	if applyReconciled(&m, failed, api.InstallationPhaseSucceeded, scrub, &diags) {
		t.Error("the same outcome applied again changed the state")
	}
	// The rows read back from state keep phase and error apart.
	if rows, ok := shared.StateRows(m); !ok || rows[0].Phase != "Failed" || !strings.HasPrefix(rows[0].LastError, "reconcile job job-2") {
		t.Errorf("state rows: %+v", rows)
	}

	succeeded := &inventory.Reconciled{JobID: "job-3", Phase: api.InstallationPhaseSucceeded}
	keep := reconciledModel("Failed", map[string]string{"app/b": "Failed: the resource's own job"})
	keep.DeployItemErrors = types.MapValueMust(types.StringType, map[string]attr.Value{
		"app/a": errs["app/a"], "app/b": types.StringValue("Failed: the resource's own job")})
	applyReconciled(&keep, succeeded, api.InstallationPhaseFailed, scrub, &diags)
	if keep.Phase.ValueString() != "Failed" || len(keep.DeployItemErrors.Elements()) != 1 {
		t.Errorf("a succeeded reconcile hid the resource's own failure: phase %s, errors %v", keep.Phase, keep.DeployItemErrors)
	}
	if !applyReconciled(&m, succeeded, api.InstallationPhaseSucceeded, scrub, &diags) ||
		m.Phase.ValueString() != "Succeeded" || len(m.DeployItemErrors.Elements()) != 0 {
		t.Errorf("after a succeeded reconcile: phase %s, errors %v", m.Phase, m.DeployItemErrors)
	}
	if diags.HasError() {
		t.Fatal(diags)
	}
}
