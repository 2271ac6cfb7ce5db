package installation

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/hostaccess"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// memPrivate is private state in memory.
type memPrivate map[string][]byte

func (m memPrivate) GetKey(_ context.Context, k string) ([]byte, diag.Diagnostics) { return m[k], nil }
func (m memPrivate) SetKey(_ context.Context, k string, v []byte) diag.Diagnostics {
	m[k] = v
	return nil
}

// previewFixture renders two mock items, app/a and app/b, whose configs
// hold the values given.
func previewFixture(t *testing.T, d *shared.ProviderData, a, b string) plannedItems {
	t.Helper()
	bp, err := blueprint.Parse([]byte(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: a, type: ` + mock.Type + `, config: {value: ` + a + `}}
    - {name: b, type: ` + mock.Type + `, config: {value: ` + b + `}}
`))
	if err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	tree, rows := shared.RenderTree(context.Background(), d.Security, d.Engine, engine.RootSpec{Name: "app", Blueprint: bp}, nil, &diags)
	if diags.HasError() {
		t.Fatal(diags)
	}
	return plannedItems{known: true, rows: rows, tree: tree}
}

func textsOf(t *testing.T, m types.String) map[string]string {
	t.Helper()
	out, ok := texts(shared.InstallationModel{DeployItemObjects: m})
	if !ok {
		t.Fatalf("deploy_item_objects is %s", m)
	}
	return out
}

// A plan previews only the items whose configuration changed, that
// failed, or whose text is of the other plan_diff mode; the others keep
// their text from the state.
func TestPlannedTexts_RendersWhatChanged(t *testing.T) {
	ctx := context.Background()
	d := &InstallationData{shared.NewProviderData("test", hostaccess.HostSettings{}, nil, shared.SecuritySettings{}, shared.Tuning{})}
	key, err := shared.NewConfigHashKey()
	if err != nil {
		t.Fatal(err)
	}
	var diags diag.Diagnostics
	before := previewFixture(t, d.ProviderData, "one", "two")
	key.KeyRows(before.rows)
	state := shared.InstallationModel{DeployItemObjects: shared.TextsValue(map[string]string{"app/a": "A FROM STATE", "app/b": "B FROM STATE"}, &diags)}
	state.SetDeployItems(before.rows, true, &diags)

	plan := previewFixture(t, d.ProviderData, "one", "three")
	key.KeyRows(plan.rows)
	value, marks, _ := d.plannedTexts(ctx, shared.PlanDiffLocal, plan, &state, key, nil, nil, &diags)
	got := textsOf(t, value)
	if got["app/a"] != "A FROM STATE" || !strings.Contains(got["app/b"], "value: three") || !strings.Contains(got["app/b"], "kind: DeployItem") {
		t.Errorf("an unchanged item is not kept or a changed one not shown: %q", got)
	}
	if marks == nil || diags.HasError() {
		t.Errorf("marks %v, diagnostics %v", marks, diags)
	}

	// A failed item is shown again although its configuration is the same.
	failed := append([]shared.DeployItemRow(nil), before.rows...)
	failed[0].Phase, failed[0].LastError = "Failed", "boom"
	state.SetDeployItems(failed, true, &diags)
	got = textsOf(t, first(d.plannedTexts(ctx, shared.PlanDiffLocal, before, &state, key, nil, nil, &diags)))
	if !strings.Contains(got["app/a"], "value: one") || got["app/b"] != "B FROM STATE" {
		t.Errorf("the failed item is not shown again: %q", got)
	}

	// Texts of the other mode, or without a key, are all shown anew.
	state.SetDeployItems(before.rows, true, &diags)
	state.PlanDiff = types.StringValue(shared.PlanDiffServer)
	got = textsOf(t, first(d.plannedTexts(ctx, shared.PlanDiffLocal, before, &state, key, nil, nil, &diags)))
	if strings.Contains(got["app/a"], "FROM STATE") || strings.Contains(got["app/b"], "FROM STATE") {
		t.Errorf("texts of the server's view kept in a local plan: %q", got)
	}
	state.PlanDiff = types.StringNull()
	got = textsOf(t, first(d.plannedTexts(ctx, shared.PlanDiffLocal, before, &state, nil, nil, nil, &diags)))
	if strings.Contains(got["app/a"], "FROM STATE") {
		t.Errorf("a text kept without a key to compare hashes with: %q", got)
	}
}

func first[A, B, C any](a A, _ B, _ C) A { return a }

// After a job the planned texts are recorded, except for items that did
// not succeed or were not applied with the planned configuration: they
// keep the previous text, or have none.
func TestAppliedTexts_FailedItemsKeepTheirText(t *testing.T) {
	ctx := context.Background()
	d := shared.NewProviderData("test", hostaccess.HostSettings{}, nil, shared.SecuritySettings{}, shared.Tuning{})
	r := &InstallationResource{Data: &InstallationData{d}}
	var diags diag.Diagnostics
	rows := []shared.DeployItemRow{
		{Installation: "app", Name: "ok", Phase: "Succeeded", ConfigHash: "h1"},
		{Installation: "app", Name: "failed", Phase: "Failed", LastError: "boom", ConfigHash: "h2"},
		{Installation: "app", Name: "new-failed", Phase: "Failed", LastError: "boom", ConfigHash: "h3"},
		{Installation: "app", Name: "not-run", Phase: "Succeeded", ConfigHash: "old"},
	}
	plan := shared.InstallationModel{DeployItemObjects: shared.TextsValue(map[string]string{
		"app/ok": "NEW ok", "app/failed": "NEW failed", "app/new-failed": "NEW new-failed", "app/not-run": "NEW not-run", "app/gone": "NEW gone",
	}, &diags)}
	planned := append([]shared.DeployItemRow(nil), rows...)
	planned[3].ConfigHash = "new"
	plan.SetDeployItems(planned, true, &diags)
	prior := shared.InstallationModel{DeployItemObjects: shared.TextsValue(map[string]string{"app/failed": "OLD failed", "app/not-run": "OLD not-run"}, &diags)}
	o := &installationOutcome{snap: &engine.Snapshot{Root: &snapshot.Installation{Path: "app"}}, items: rows}
	priv := memPrivate{}
	got := textsOf(t, r.appliedTexts(ctx, plan, &prior, o, nil, priv, priv, &diags))
	want := map[string]string{"app/ok": "NEW ok", "app/failed": "OLD failed", "app/not-run": "OLD not-run"}
	if len(got) != len(want) {
		t.Errorf("texts %q, want %q", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
	if diags.HasError() {
		t.Error(diags)
	}
	// plan_diff = "off" records nothing.
	plan.PlanDiff = types.StringValue(shared.PlanDiffOff)
	if v := r.appliedTexts(ctx, plan, &prior, o, nil, priv, priv, &diags); !v.IsNull() {
		t.Errorf("off records %s", v)
	}
}

// A sensitive export of one installation, learned from its snapshot, is
// masked in the texts of another installation whose item it reaches
// (through imports.data, which Terraform passes without saying it is
// sensitive).
func TestPlannedTexts_MasksLearnedSecrets(t *testing.T) {
	ctx := context.Background()
	d := &InstallationData{shared.NewProviderData("test", hostaccess.HostSettings{}, nil, shared.SecuritySettings{}, shared.Tuning{})}
	d.Security.LearnSnapshot(&engine.Snapshot{Root: &snapshot.Installation{Path: "exporter",
		Exports: map[string]any{"dbPassword": "s3cr3t-from-exporter"}}}, []string{"dbPassword"})
	var diags diag.Diagnostics
	got := textsOf(t, first(d.plannedTexts(ctx, shared.PlanDiffLocal, previewFixture(t, d.ProviderData, "s3cr3t-from-exporter", "plain"), nil, nil, nil, nil, &diags)))
	if strings.Contains(got["app/a"], "s3cr3t") || !strings.Contains(got["app/a"], "value: (sensitive value v1)") {
		t.Errorf("the learned secret is not masked:\n%s", got["app/a"])
	}
	if !strings.Contains(got["app/b"], "value: plain") {
		t.Errorf("an ordinary value is masked:\n%s", got["app/b"])
	}
}

// A create renders its planned texts again only for the items whose marks
// it must record under its new key: those that show a masked value, or in
// which a value registered now may be; with plan_diff = "server" all.
func TestCreateMarksNone(t *testing.T) {
	d := shared.NewProviderData("test", hostaccess.HostSettings{}, nil, shared.SecuritySettings{}, shared.Tuning{})
	d.Security.LearnSnapshot(&engine.Snapshot{Root: &snapshot.Installation{Path: "exporter",
		Exports: map[string]any{"dbPassword": "s3cr3t-from-exporter"}}}, []string{"dbPassword"})
	opts := d.PreviewOptions(shared.PlanDiffLocal, nil, nil, nil)
	planned := map[string]string{
		"app/plain":   "kind: ConfigMap\ndata:\n  a: b\n",
		"app/masked":  "kind: Secret\ndata:\n  a: (sensitive value v1)\n",
		"app/learned": "kind: ConfigMap\ndata:\n  url: postgres://app@db?password=s3cr3t-from-exporter\n",
		"app/note":    shared.NoPreview + "chart fetched at apply\n",
	}
	skip := createMarksNone(shared.PlanDiffLocal, planned, opts.Sensitive)
	for id, want := range map[string]bool{"app/plain": true, "app/masked": false, "app/learned": false, "app/note": false, "app/unplanned": false} {
		if got := skip(id); got != want {
			t.Errorf("%s: skipped %v, want %v", id, got, want)
		}
	}
	rows := []shared.DeployItemRow{{Installation: "app", Name: "plain"}, {Installation: "app", Name: "masked"}}
	if allSkipped(rows, skip) || !allSkipped(rows[:1], skip) || allSkipped(rows[:1], nil) {
		t.Error("allSkipped does not say whether every row is skipped")
	}
	if createMarksNone(shared.PlanDiffServer, planned, opts.Sensitive) != nil {
		t.Error("a server view skips the rendering")
	}
}
