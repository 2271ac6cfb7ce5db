package provider

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// A no-op plan reuses the last apply's rendering when the render key
// matches (shared/render_key.go); these tests hold it to rendering
// whenever an input the key covers changed, and to rendering blueprints
// whose output may differ between runs at every plan.

func TestNoOpPlan_ReusesTheRendering(t *testing.T) {
	t.Setenv("TF_LANDSCAPER_VERIFY_RENDER_REUSE", "")
	s := newBenchServer(t, 20)
	r := s.prepareNoOp(t, s.create(t))
	before := shared.Renders()
	s.expectEmpty(t, r, s.noOpPlan(t, r))
	if n := shared.Renders() - before; n != 0 {
		t.Fatalf("a no-op plan of an unchanged installation rendered %d trees, want 0", n)
	}

	// Verified, it renders anyway and finds the same.
	t.Setenv("TF_LANDSCAPER_VERIFY_RENDER_REUSE", "1")
	before = shared.Renders()
	s.expectEmpty(t, r, s.noOpPlan(t, r))
	if n := shared.Renders() - before; n != 1 {
		t.Fatalf("a verified reuse rendered %d trees, want 1", n)
	}
}

func TestNoOpPlan_RendersWhenABlueprintFileChanged(t *testing.T) {
	t.Setenv("TF_LANDSCAPER_VERIFY_RENDER_REUSE", "")
	dir := t.TempDir()
	write := func(execution string) {
		t.Helper()
		for name, text := range map[string]string{"blueprint.yaml": benchBlueprint, "deploy-execution.yaml": execution} {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(benchExecution(3))
	s := newServerOf(t, func(bpType tftypes.Object) tftypes.Value {
		return nullObject(bpType, map[string]tftypes.Value{"path": tftypes.NewValue(tftypes.String, dir)})
	})
	r := s.prepareNoOp(t, s.create(t))
	s.expectEmpty(t, r, s.noOpPlan(t, r))

	// The same configuration, another blueprint on disk: one item's data.
	write(strings.Replace(benchExecution(3), `index: "{{ $i }}"`, `index: "x{{ $i }}"`, 1))
	before := shared.Renders()
	planned := s.noOpPlan(t, r)
	if n := shared.Renders() - before; n != 1 {
		t.Fatalf("the plan after a blueprint file changed rendered %d trees, want 1", n)
	}
	if v, err := planned.Unmarshal(s.typ); err != nil || v.Equal(r.state) {
		t.Fatalf("the plan after a blueprint file changed is empty (err %v)", err)
	}
}

func TestNoOpPlan_RendersVaryingTemplatesEveryTime(t *testing.T) {
	t.Setenv("TF_LANDSCAPER_VERIFY_RENDER_REUSE", "")
	// `now` is the same year from one plan to the next, but a template
	// that calls it may render differently at any plan.
	execution := strings.Replace(benchExecution(2), `index: "{{ $i }}"`, `index: "{{ $i }}", year: "{{ now | date "2006" }}"`, 1)
	s := newServerOf(t, func(bpType tftypes.Object) tftypes.Value {
		return nullObject(bpType, map[string]tftypes.Value{
			"inline": tftypes.NewValue(bpType.AttributeTypes["inline"], map[string]tftypes.Value{
				"blueprint.yaml":        tftypes.NewValue(tftypes.String, benchBlueprint),
				"deploy-execution.yaml": tftypes.NewValue(tftypes.String, execution),
			}),
		})
	})
	r := s.prepareNoOp(t, s.create(t))
	if bytes.Contains(r.private, []byte("render_key")) {
		t.Fatal("an apply of a template calling now recorded a render key")
	}
	before := shared.Renders()
	s.expectEmpty(t, r, s.noOpPlan(t, r))
	if n := shared.Renders() - before; n != 1 {
		t.Fatalf("the plan of a template calling now rendered %d trees, want 1", n)
	}
}

// A key that matched although rendering plans a change — here a state
// whose deploy item hash (deploy_items) was edited after the apply — fails a verified
// plan, naming the installation.
func TestNoOpPlan_VerifiedReuseFailsOnAChange(t *testing.T) {
	t.Setenv("TF_LANDSCAPER_VERIFY_RENDER_REUSE", "1")
	s := newBenchServer(t, 2)
	r := s.prepareNoOp(t, s.create(t))
	if !bytes.Contains(r.private, []byte("render_key")) {
		t.Fatal("the apply recorded no render key")
	}
	item := `"bench/cm-0":"`
	i := bytes.Index(r.stateJSON, []byte(item))
	if i < 0 {
		t.Fatalf("no deploy item bench/cm-0 in the state: %.300s", r.stateJSON)
	}
	edited := bytes.Clone(r.stateJSON)
	edited[i+len(item)] ^= 1 // its hash: another hex digit
	up, err := s.srv.UpgradeResourceState(s.ctx, &tfprotov6.UpgradeResourceStateRequest{
		TypeName: benchResource, Version: shared.InstallationSchemaVersion, RawState: &tfprotov6.RawState{JSON: edited},
	})
	check(t, "upgrade", err, up.Diagnostics)
	plan, err := s.srv.PlanResourceChange(s.ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: benchResource, PriorState: up.UpgradedState, ProposedNewState: r.proposed, Config: s.raw, PriorPrivate: r.private,
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range plan.Diagnostics {
		if d.Severity == tfprotov6.DiagnosticSeverityError && d.Summary == "Render Reuse Would Hide A Change" &&
			strings.Contains(d.Detail, "installation bench") {
			return
		}
	}
	t.Fatalf("the verified plan of an edited state did not fail: %v", plan.Diagnostics)
}
