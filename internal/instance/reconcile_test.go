package instance

import (
	"errors"
	"reflect"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// What a reconcile job records for the resource's next refresh: its job
// ID and phase and, when it failed, every failed item of the tree with
// its error.
func TestReconciledOf(t *testing.T) {
	item := func(id string, phase api.DeployItemPhase, msg string) *snapshot.DeployItem {
		it := &snapshot.DeployItem{ID: id, Phase: phase}
		if msg != "" {
			it.LastError = &snapshot.Error{Message: msg}
		}
		return it
	}
	snap := &engine.Snapshot{Root: &snapshot.Installation{Path: "app", JobID: "job-2", Phase: api.InstallationPhaseFailed,
		LastError: &snapshot.Error{Message: "reconcile job job-2 failed"},
		Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{
			item("app/ok", api.DeployItemPhaseSucceeded, ""), item("app/bad", api.DeployItemPhaseFailed, "denied")}},
		Subinstallations: []*snapshot.Installation{{Path: "app/sub", Phase: api.InstallationPhaseFailed,
			Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{item("app/sub/x", api.DeployItemPhaseFailed, "")}}}},
	}}
	got := reconciledOf(snap, errors.New("failed"))
	want := inventory.Reconciled{JobID: "job-2", Phase: api.InstallationPhaseFailed, Message: "reconcile job job-2 failed",
		Errors: map[string]string{"app/bad": "denied", "app/sub/x": "Failed"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("failed job: %+v, want %+v", got, want)
	}

	ok := &engine.Snapshot{Root: &snapshot.Installation{Path: "app", JobID: "job-3", Phase: api.InstallationPhaseSucceeded}}
	if got := reconciledOf(ok, nil); !reflect.DeepEqual(got, inventory.Reconciled{JobID: "job-3", Phase: api.InstallationPhaseSucceeded}) {
		t.Errorf("succeeded job: %+v", got)
	}
	// An error after the items (the inventory's last writes) fails the job.
	if got := reconciledOf(ok, errors.New("writing the inventory")); got.Phase != api.InstallationPhaseFailed {
		t.Errorf("a job with an error records phase %s", got.Phase)
	}
}
