package engine

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// Replay applies every recorded item of the tree again, with its
// recorded configuration, in a new job: an item removed out of band is
// back, and nothing is rendered (the blueprint is not given).
func TestReplay_AppliesEveryItemAgain(t *testing.T) {
	e, m, _ := newEngine()
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Remove("root/db/app")
	replayed, err := e.Replay(context.Background(), snap)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(m.Deployed(), "root/db/app") {
		t.Fatalf("the removed item is not deployed again: %v", m.Deployed())
	}
	if replayed.Root.JobID == snap.Root.JobID || replayed.RootPhase() != api.InstallationPhaseSucceeded {
		t.Fatalf("replay: job %s (before %s), phase %s", replayed.Root.JobID, snap.Root.JobID, replayed.RootPhase())
	}
	for _, in := range replayed.Installations() {
		if in.JobIDFinished != replayed.Root.JobID {
			t.Errorf("installation %s finished job %s, want %s", in.Path, in.JobIDFinished, replayed.Root.JobID)
		}
	}
	if snap.Root.JobID == replayed.Root.JobID {
		t.Error("replay changed the snapshot it was given")
	}
}

// A failing item fails the replay, its installation and the root, and the
// error names it.
func TestReplay_FailureFailsTheTree(t *testing.T) {
	e, _, _ := newEngine()
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range snap.Installations() {
		for _, it := range in.Execution.DeployItems {
			if it.ID == "root/db/app" {
				it.Config = json.RawMessage(`{"phase":"Failed"}`)
			}
		}
	}
	replayed, err := e.Replay(context.Background(), snap)
	if err == nil || !strings.Contains(err.Error(), "root/db/app") || !strings.Contains(err.Error(), "scripted phase Failed") {
		t.Fatalf("replay with a failing item: err=%v, want it named", err)
	}
	for _, in := range replayed.Installations() {
		if (in.Path == "root" || in.Path == "root/db") && in.Phase != api.InstallationPhaseFailed {
			t.Errorf("installation %s: phase %s, want Failed", in.Path, in.Phase)
		}
	}
}

// A recorded item whose write-only values were masked cannot be
// replayed: it fails, naming why, and is not applied with the mask.
func TestReplay_MaskedItemFails(t *testing.T) {
	e, m, _ := newEngine()
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range snap.Installations() {
		for _, it := range in.Execution.DeployItems {
			if it.ID == "root/db/app" {
				it.Config = json.RawMessage(`{"token":"` + snapshot.WriteOnlyMask + `"}`)
			}
		}
	}
	m.Remove("root/db/app")
	_, err = e.Replay(context.Background(), snap)
	if err == nil || !strings.Contains(err.Error(), "root/db/app") || !strings.Contains(err.Error(), "data_wo_version") {
		t.Fatalf("replay of a masked item: err=%v, want it named with the way out", err)
	}
	if slices.Contains(m.Deployed(), "root/db/app") {
		t.Error("the masked configuration was deployed")
	}
}
