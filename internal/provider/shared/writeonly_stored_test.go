package shared

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/preview"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
)

// woBlueprint renders the write-only import token into deploy items of
// every kind of use: as a value, inside a longer string, in an
// updateOnChangeOnly item, and an updateOnChangeOnly item without it.
const woBlueprint = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: token
  schema: {type: string}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: plain, type: ` + mock.Type + `, config: {token: "{{ .imports.token }}"}}
    - {name: once, type: ` + mock.Type + `, updateOnChangeOnly: true, config: {url: "https://u:{{ .imports.token }}@h/"}}
    - {name: other, type: ` + mock.Type + `, updateOnChangeOnly: true, config: {x: "no secret here"}}
`

// stored is everything a job of the installation leaves for Terraform
// and the inventory to keep, as bytes.
type stored struct {
	snapshot   []byte            // private state's engine snapshot, masked as SetPrivate gets it
	planned    []string          // deploy_items config_hash values a plan shows
	applied    []string          // deploy_items config_hash values state keeps
	imports    string            // the root's imports hash
	marks      []byte            // preview marks in private state
	recorded   map[string][]byte // what the inventory records of each item (provider status)
	appliedIDs []string          // items the second job applied
}

// runWithWriteOnly plans and applies woBlueprint with token = value as a
// write-only import, as the installation resource does (TrustImports,
// RootSpec.WriteOnly, MaskSnapshot, keyed hashes, preview marks), then
// applies it again with the same value.
func runWithWriteOnly(t *testing.T, value string) stored {
	t.Helper()
	ctx := context.Background()
	sec := &Security{}
	wo := map[string]any{"token": value}
	sec.Secrets.AddWriteOnly(wo)
	bp, err := blueprint.Parse([]byte(woBlueprint))
	if err != nil {
		t.Fatal(err)
	}
	spec := engine.RootSpec{Name: "app", Blueprint: bp, Imports: blueprint.Imports{Data: map[string]any{"token": value}},
		WriteOnly: redact.WriteOnlyForms(wo)}
	reg := deployer.NewRegistry()
	m := mock.New()
	reg.Register(mock.Type, m)
	eng := &engine.Engine{Deployers: reg}
	key := ConfigHashKey(bytes.Repeat([]byte{7}, configHashKeyBytes))
	var out stored

	var diags diag.Diagnostics
	tree, rows := RenderTree(ctx, sec, eng, spec, nil, &diags)
	if diags.HasError() || tree == nil {
		t.Fatal(diags)
	}
	key.KeyRows(rows)
	for _, r := range rows {
		out.planned = append(out.planned, r.Path()+"="+r.ConfigHash)
	}
	out.imports = tree.ImportsHash()
	var sensitive preview.Sensitive
	sensitive.Add(sec.Secrets.Values()...)
	opts := instance.PreviewOptions{Marks: preview.NewMarks(key, nil, sec.Secrets.WriteOnly()), Sensitive: &sensitive}
	for _, it := range (instance.Runner{Engine: eng}).Preview(ctx, tree, nil, opts) {
		if it.Err != nil {
			t.Fatal(it.Err)
		}
	}
	if out.marks, err = json.Marshal(opts.Marks.Table()); err != nil {
		t.Fatal(err)
	}
	if len(opts.Marks.Table()) == 0 {
		t.Fatal("the preview masked nothing: the marks are not tested")
	}

	r := instance.Runner{Engine: eng}
	first, err := r.Apply(ctx, spec, nil, "instance")
	if err != nil {
		t.Fatal(err)
	}
	// The second job (same value, as after a data_wo_version bump).
	before := len(m.Events())
	second, err := r.Apply(ctx, spec, first.Snapshot, "instance")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range m.Events()[before:] {
		if e.Op == "apply" && e.Start {
			out.appliedIDs = append(out.appliedIDs, e.ID)
		}
	}
	snap := second.Snapshot
	sec.MaskSnapshot(snap)
	out.recorded = map[string][]byte{}
	for _, in := range snap.Installations() {
		for _, it := range in.Execution.DeployItems {
			out.applied = append(out.applied, it.ID+"="+key.hash(it.ConfigHash))
			out.recorded[it.ID] = it.ProviderStatus
		}
	}
	b, err := snapshot.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	// Job IDs are drawn anew by each job; nothing else may differ.
	for _, id := range []string{first.Snapshot.Root.JobID, snap.Root.JobID} {
		b = bytes.ReplaceAll(b, []byte(id), []byte("<job>"))
	}
	fp := fakePrivate{}
	if d := sec.SetPrivate(ctx, fp, "snapshot", b, false); d.HasError() {
		t.Fatal(d)
	}
	out.snapshot = fp["snapshot"]
	return out
}

// Issue 32 (d): two installations whose write-only values differ (and
// whose data_wo_version is the same) store the same bytes — private
// snapshot, deploy_items hashes of plan and state, the imports hash,
// preview marks, what the inventory records of each item — so neither
// value can be tested against what is stored. The items holding the
// value are applied by every job, updateOnChangeOnly or not; the one
// without it is skipped as before.
func TestWriteOnly_NothingStoredDependsOnIt(t *testing.T) {
	const one, two = "value-one", "value-two"
	a, b := runWithWriteOnly(t, one), runWithWriteOnly(t, two)
	if !bytes.Equal(a.snapshot, b.snapshot) {
		t.Errorf("the private snapshots differ:\n%s\n%s", a.snapshot, b.snapshot)
	}
	for what, pair := range map[string][2]string{
		"planned deploy_items": {strings.Join(a.planned, " "), strings.Join(b.planned, " ")},
		"applied deploy_items": {strings.Join(a.applied, " "), strings.Join(b.applied, " ")},
		"imports hash":         {a.imports, b.imports},
		"preview marks":        {string(a.marks), string(b.marks)},
	} {
		if pair[0] != pair[1] {
			t.Errorf("%s differ: %s, %s", what, pair[0], pair[1])
		}
	}
	for id, status := range a.recorded {
		if !bytes.Equal(status, b.recorded[id]) {
			t.Errorf("the inventory records %s differently: %s, %s", id, status, b.recorded[id])
		}
	}
	for _, v := range []string{one, two} {
		sum := sha256.Sum256([]byte(v))
		for _, s := range []stored{a, b} {
			if bytes.Contains(s.snapshot, []byte(v)) || bytes.Contains(s.snapshot, []byte(hex.EncodeToString(sum[:])[:32])) {
				t.Errorf("the private snapshot holds %q or its sha256", v)
			}
		}
	}
	// The hash of a configuration holding a write-only value says nothing
	// of it, so updateOnChangeOnly does not skip it; it still skips others.
	if got := strings.Join(a.appliedIDs, " "); got != "app/plain app/once" && got != "app/once app/plain" {
		t.Errorf("the second job applied %q, want app/plain and app/once", got)
	}
}
