package installation

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// A destroy whose state lists deploy items but whose private snapshot is
// gone must not report success (issue 10 item 10): it fails naming the
// items and leaves the state as it is; with delete_without_uninstall it
// only forgets, as asked.
func TestDelete_LostSnapshotFailsClearly(t *testing.T) {
	ctx := context.Background()
	var diags diag.Diagnostics
	m := shared.InstallationModel{Name: types.StringValue("app"), Namespace: types.StringValue("default"),
		DeleteWithoutUninstall: types.BoolValue(false), Phase: types.StringValue("Succeeded")}
	m.SetDeployItems([]shared.DeployItemRow{
		{Installation: "app", Name: "web", Phase: "Succeeded"},
		{Installation: "app/db", Name: "chart", Phase: "Succeeded"},
	}, true, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	d := &InstallationData{shared.NewProviderData("test", hostaccess.HostSettings{}, nil, shared.SecuritySettings{}, shared.Tuning{})}
	for _, snap := range [][]byte{nil, []byte(`{"version":2}`)} {
		out, _, err := d.delete(ctx, m, snap, "", nil, shared.Provenance{})
		if err == nil || out != nil {
			t.Fatalf("snapshot %q: a destroy that deleted nothing succeeded", snap)
		}
		for _, want := range []string{"app/web", "app/db/chart", "nothing was deleted"} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error %q does not say %q", err, want)
			}
		}
	}
	m.DeleteWithoutUninstall = types.BoolValue(true)
	if out, _, err := d.delete(ctx, m, nil, "", nil, shared.Provenance{}); err != nil || out != nil {
		t.Errorf("delete_without_uninstall only forgets: %v", err)
	}
	// a failed create's tainted instance has no private data at all; its
	// replacement takes its objects over, so its destroy goes through
	m.DeleteWithoutUninstall, m.Phase = types.BoolValue(false), types.StringValue("Failed")
	if out, _, err := d.delete(ctx, m, nil, "", nil, shared.Provenance{}); err != nil || out != nil {
		t.Errorf("the destroy of a failed create's tainted instance must not be blocked: %v", err)
	}
	m.Phase = types.StringValue("Succeeded")
	m.DeleteWithoutUninstall = types.BoolValue(false)
	m.SetDeployItems(nil, true, &diags)
	if out, _, err := d.delete(ctx, m, nil, "", nil, shared.Provenance{}); err != nil || out != nil {
		t.Errorf("nothing recorded, nothing to delete: %v", err)
	}
}

// A destroy right after `terraform import` (no apply since, so neither a
// snapshot nor deploy items, and no phase) must not report success: the
// installation's objects are known only to its inventory, which the next
// apply reads.
func TestDelete_ImportedButNotAppliedFailsClearly(t *testing.T) {
	m := shared.InstallationModel{ID: types.StringValue("default/app"), Name: types.StringValue("app"),
		Namespace: types.StringValue("default")}
	d := &InstallationData{shared.NewProviderData("test", hostaccess.HostSettings{}, nil, shared.SecuritySettings{}, shared.Tuning{})}
	out, _, err := d.delete(context.Background(), m, nil, "", nil, shared.Provenance{})
	if err == nil || out != nil {
		t.Fatal("a destroy of an imported, never applied installation deleted nothing and succeeded")
	}
	for _, want := range []string{"imported", "terraform apply", "nothing was deleted"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
