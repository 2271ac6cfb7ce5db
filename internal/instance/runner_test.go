package instance

import (
	"context"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

// twoItems renders a mock item "ok" and one "bad" whose Apply ends as
// badPhase and whose Delete fails when deleteFails is set. Mock items
// have no target, so no inventory is read or written.
func twoItems(t *testing.T, badPhase string, deleteFails bool) engine.RootSpec {
	t.Helper()
	del := "false"
	if deleteFails {
		del = "true"
	}
	bp, err := blueprint.Parse([]byte(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - {name: ok, type: ` + mock.Type + `, config: {}}
    - {name: bad, type: ` + mock.Type + `, config: {phase: ` + badPhase + `, deleteFails: ` + del + `}}
`))
	if err != nil {
		t.Fatal(err)
	}
	return engine.RootSpec{Name: "app", Blueprint: bp}
}

func mockRunner() Runner {
	reg := deployer.NewRegistry()
	reg.Register(mock.Type, mock.New())
	return Runner{Engine: &engine.Engine{Deployers: reg}}
}

// A failed job keeps its snapshot and says which deploy items failed and
// why; a successful one says nothing. A job without a previous snapshot
// starts from the inventory's record (none here).
func TestRunner_ApplyReportsFailedItems(t *testing.T) {
	ctx := context.Background()
	r := mockRunner()
	job, err := r.Apply(ctx, twoItems(t, "Failed", false), nil, deployer.NewInstance())
	if err == nil || job.Snapshot == nil || job.Start != nil {
		t.Fatalf("a failed job: err %v, snapshot %v, start %v", err, job.Snapshot, job.Start)
	}
	if !strings.Contains(err.Error(), "Failed deploy items:\n- deploy item app/bad (Failed): ") || strings.Contains(err.Error(), "app/ok") {
		t.Errorf("the report lists app/bad alone:\n%v", err)
	}
	if job.Snapshot.RootPhase() != api.InstallationPhaseFailed {
		t.Errorf("phase %s", job.Snapshot.RootPhase())
	}
	again, err := r.Apply(ctx, twoItems(t, "Succeeded", false), job.Snapshot, deployer.NewInstance())
	if err != nil || again.Start != job.Snapshot || again.Snapshot.RootPhase() != api.InstallationPhaseSucceeded {
		t.Fatalf("the retry from the snapshot: %v, phase %s", err, again.Snapshot.RootPhase())
	}
}

// A delete that leaves something behind returns what is left and names
// the item that failed; a complete one returns an empty snapshot.
func TestRunner_DeleteReportsWhatIsLeft(t *testing.T) {
	ctx := context.Background()
	r := mockRunner()
	job, err := r.Apply(ctx, twoItems(t, "Succeeded", true), nil, "i")
	if err != nil {
		t.Fatal(err)
	}
	left, err := r.Delete(ctx, job.Snapshot, "i", engine.DeleteOptions{})
	if err == nil || left.Empty() || !strings.Contains(err.Error(), "- deploy item app/bad (DeleteFailed): ") {
		t.Fatalf("a failed delete: %v, left %v", err, left)
	}
	gone, err := r.Delete(ctx, job.Snapshot, "i", engine.DeleteOptions{WithoutUninstall: true})
	if err != nil || !gone.Empty() {
		t.Fatalf("delete without uninstall: %v, left %v", err, gone)
	}
}
