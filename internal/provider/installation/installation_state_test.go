package installation

import (
	"context"
	"reflect"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// stateRows reads back what setDeployItems wrote (path, phase, error and
// hash), and refuses what it cannot read (null or unknown items, a key
// that is no item path, unknown errors).
func TestStateRows(t *testing.T) {
	var diags diag.Diagnostics
	rows := []shared.DeployItemRow{
		{Installation: "app", Name: "db", Type: "landscaper.gardener.cloud/mock", Target: "cluster",
			DependsOn: []string{}, Phase: "Succeeded", ConfigHash: "h1"},
		{Installation: "app/sub", Name: "cache", Phase: "Init", ConfigHash: "h3"},
		{Installation: "app/sub", Name: "web", Type: "landscaper.gardener.cloud/helm", Target: "clusters[0]",
			DependsOn: []string{"db", "cache"}, Phase: "Failed", LastError: "boom: the chart: failed", ConfigHash: "h2"},
	}
	var m shared.InstallationModel
	m.SetDeployItems(rows, true, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	wantErrors := types.MapValueMust(types.StringType, map[string]attr.Value{
		"app/sub/cache": types.StringValue("Init"),
		"app/sub/web":   types.StringValue("Failed: boom: the chart: failed"),
	})
	if !m.DeployItemErrors.Equal(wantErrors) || len(m.DeployItems.Elements()) != 3 {
		t.Fatalf("recorded %v and %v", m.DeployItems, m.DeployItemErrors)
	}
	got, ok := shared.StateRows(m)
	want := []shared.DeployItemRow{
		{Installation: "app", Name: "db", Phase: "Succeeded", ConfigHash: "h1"},
		{Installation: "app/sub", Name: "cache", Phase: "Init", ConfigHash: "h3"},
		{Installation: "app/sub", Name: "web", Phase: "Failed", LastError: "boom: the chart: failed", ConfigHash: "h2"},
	}
	if !ok || !reflect.DeepEqual(got, want) {
		t.Fatalf("read back %+v (%v), want %+v", got, ok, want)
	}
	noErrors := types.MapValueMust(types.StringType, map[string]attr.Value{})
	for name, bad := range map[string]shared.InstallationModel{
		"null":           {DeployItems: types.MapNull(types.StringType), DeployItemErrors: noErrors},
		"unknown":        {DeployItems: types.MapUnknown(types.StringType), DeployItemErrors: noErrors},
		"unknown errors": {DeployItems: m.DeployItems, DeployItemErrors: types.MapUnknown(types.StringType)},
		"not a path": {DeployItems: types.MapValueMust(types.StringType, map[string]attr.Value{"db": types.StringValue("h")}),
			DeployItemErrors: noErrors},
	} {
		if rows, ok := shared.StateRows(bad); ok {
			t.Errorf("%s: read as %+v", name, rows)
		}
	}
}

// Drift found by refresh goes into deploy_item_errors, next to the
// errors already recorded; a path that is no recorded item is ignored.
func TestMarkDrifted(t *testing.T) {
	var diags diag.Diagnostics
	var m shared.InstallationModel
	m.SetDeployItems([]shared.DeployItemRow{
		{Installation: "app", Name: "db", Phase: "Succeeded", ConfigHash: "h1"},
		{Installation: "app", Name: "web", Phase: "Failed", LastError: "boom", ConfigHash: "h2"},
	}, true, &diags)
	items := m.DeployItems
	markDrifted(&m, map[string]string{"app/db": "ConfigMap bench/x was deleted", "app/gone": "x"}, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	want := types.MapValueMust(types.StringType, map[string]attr.Value{
		"app/db":  types.StringValue("Drifted: ConfigMap bench/x was deleted"),
		"app/web": types.StringValue("Failed: boom"),
	})
	if !m.DeployItemErrors.Equal(want) || !m.DeployItems.Equal(items) {
		t.Errorf("errors %v, items %v", m.DeployItemErrors, m.DeployItems)
	}
}

// A Secret import's value that a blueprint passes into an export is
// sensitive whatever sensitive_exports names (issue 32, from reading):
// exports holding a registered secret, as a string inside a string or as
// a number, go to sensitive_export_values; the others stay in exports.
func TestToModel_exportHoldingASecretIsSensitive(t *testing.T) {
	ctx := context.Background()
	sec := shared.NewProviderData("test", hostaccess.HostSettings{}, nil, shared.SecuritySettings{}, shared.Tuning{}).Security
	sec.Secrets.AddValue(map[string]any{"password": "pw-from-a-secret", "pin": 73920184})
	out := &installationOutcome{exports: map[string]any{
		"url":   "https://user:pw-from-a-secret@db.example/x",
		"pin":   float64(73920184),
		"plain": "readable",
	}}
	scrubOutcome(sec, out)
	var diags diag.Diagnostics
	m, err := keptResource{}.decode(ctx)
	if err != nil {
		t.Fatal(err)
	}
	m = out.toModel(ctx, m, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	public, err := shared.GoValue(ctx, m.Exports.UnderlyingValue())
	if err != nil {
		t.Fatal(err)
	}
	secret, err := shared.GoValue(ctx, m.SensitiveExportValues.UnderlyingValue())
	if err != nil {
		t.Fatal(err)
	}
	p, _ := public.(map[string]any)
	s, _ := secret.(map[string]any)
	if len(p) != 1 || p["plain"] != "readable" {
		t.Errorf("exports = %v, want only the export that holds no secret", p)
	}
	if _, ok := s["url"]; !ok || s["pin"] == nil {
		t.Errorf("sensitive_export_values = %v, want url and pin", s)
	}
}
