package engine

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

func TestApply_InterruptAtRandomPoints(t *testing.T) {
	// an interrupt never loses a deployed item, every object finishes, a later apply converges and delete removes all
	comp := componentBlueprint("delay: 100ms")
	yaml := treeBlueprint("delay: 100ms", subinstallation("db", comp, "prefix", "dbOut"),
		subinstallation("web", comp, "dbOut", "final"), subinstallation("cache", comp, "prefix", "cacheOut"))
	rng := rand.New(rand.NewPCG(4711, 42))
	for round := 0; round < 8; round++ {
		e, m, _ := newEngine()
		// The mock returns at once when its context ends; an abort timeout far above
		// scheduling delays on a busy machine keeps calls from being given up.
		e.AbortTimeout = 600 * time.Millisecond
		spec := rootSpec(t, yaml)
		ctx, cancel := context.WithCancel(context.Background())
		after := time.Duration(rng.IntN(300)) * time.Millisecond
		time.AfterFunc(after, cancel)
		start := time.Now()
		snap, _ := e.Apply(ctx, spec, nil)
		if took := time.Since(start); took > 2*time.Second {
			t.Errorf("round %d: interrupted apply took %s", round, took)
		}
		cancel()
		checkFinished(t, snap)
		recorded := map[string]bool{}
		for _, it := range snap.DeployItems() {
			// A call given up after its abort timeout may deploy after the job
			// ended (its item says so); the delete or apply below must
			// still remove or take over what it left.
			givenUp := it.LastError != nil && strings.Contains(it.LastError.Message, "did not return within")
			recorded[it.ID] = len(it.ProviderStatus) > 0 || givenUp
			if it.JobID != snap.JobID() || it.JobIDFinished != snap.JobID() {
				t.Errorf("round %d: deploy item %s not finished with the job", round, it.ID)
			}
		}
		for _, id := range m.Deployed() {
			if !recorded[id] {
				t.Errorf("round %d (interrupt after %s): %s is deployed but not recorded", round, after, id)
			}
		}
		// The provider stores the snapshot; the next apply starts from the decoded copy.
		b, err := snapshot.Marshal(snap)
		if err != nil {
			t.Fatal(err)
		}
		if snap, err = snapshot.Unmarshal(b); err != nil {
			t.Fatal(err)
		}
		if round%2 == 1 {
			// Odd rounds delete straight from the interrupted job's snapshot.
			if gone, err := e.Delete(context.Background(), snap, DeleteOptions{}); err != nil || !gone.Empty() || len(m.Deployed()) != 0 {
				t.Errorf("round %d: delete after interrupt: %v, left %v", round, err, m.Deployed())
			}
			continue
		}
		snap, err = e.Apply(context.Background(), spec, snap)
		if err != nil || snap.RootPhase() != api.InstallationPhaseSucceeded {
			t.Fatalf("round %d: apply after interrupt: %v", round, err)
		}
		if got := strings.Join(m.Deployed(), ","); got != "root/base,root/cache/app,root/db/app,root/web/app" {
			t.Errorf("round %d: converged to %s", round, got)
		}
		if gone, err := e.Delete(context.Background(), snap, DeleteOptions{}); err != nil || !gone.Empty() || len(m.Deployed()) != 0 {
			t.Errorf("round %d: delete: %v, left %v", round, err, m.Deployed())
		}
	}
}

func TestApply_InterruptMarksRunningItems(t *testing.T) {
	// running items are cancelled, get the abort timeout to return and are then Failed with a lastError saying they were interrupted
	e, _, _ := newEngine()
	spec := rootSpec(t, treeBlueprint("delay: 10s", subinstallation("db", componentBlueprint(""), "prefix", "final")))
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	snap, err := e.Apply(ctx, spec, nil)
	if err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Fatalf("error %v", err)
	}
	checkFinished(t, snap)
	for _, it := range snap.DeployItems() {
		if it.ID == "root/base" && (it.Phase != api.DeployItemPhaseFailed || it.LastError.Reason != "Interrupted") {
			t.Errorf("base: %s %+v", it.Phase, it.LastError)
		}
	}
	for _, it := range snap.DeployItems() {
		if it.LastError != nil && !it.LastError.Retryable {
			t.Errorf("item %s %+v: after an interrupt another apply is expected to change something", it.ID, it.LastError)
		}
	}
}

func TestApply_UnfinishedPreviousJobRestarts(t *testing.T) {
	// a snapshot of an unfinished job is not resumed: the next apply starts a new job that re-applies every item, also those the unfinished job finished
	e, m, _ := newEngine()
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The unfinished job reached every deploy item (they finished it) but
	// not the root and the subinstallation.
	const unfinished = "unfinished-job"
	snap.Root.JobID = unfinished
	snap.Root.Subinstallations[0].JobID, snap.Root.Subinstallations[0].Phase = unfinished, api.InstallationPhaseProgressing
	for _, it := range snap.DeployItems() {
		it.JobID, it.JobIDFinished = unfinished, unfinished
	}
	before := len(m.Events())
	next, err := e.Apply(context.Background(), spec, snap)
	if err != nil || next.JobID() == unfinished || next.RootPhase() != api.InstallationPhaseSucceeded {
		t.Fatalf("%v: job %s phase %s", err, next.JobID(), next.RootPhase())
	}
	checkFinished(t, next)
	applied := map[string]bool{}
	for _, ev := range m.Events()[before:] {
		if ev.Op == "apply" && ev.Start {
			applied[ev.ID] = true
		}
	}
	for _, it := range next.DeployItems() {
		if !applied[it.ID] || it.JobID != next.JobID() {
			t.Errorf("deploy item %s was not re-applied by the new job (job %s): the unfinished job was resumed", it.ID, it.JobID)
		}
	}
}

func TestDelete_Interrupted(t *testing.T) {
	// an interrupted delete records exactly what remains; a later delete removes it
	e, m, _ := newEngine()
	comp := componentBlueprint("deleteDelay: 10s")
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "dbOut"), subinstallation("web", comp, "dbOut", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	left, err := e.Delete(ctx, snap, DeleteOptions{})
	if err == nil || left.Empty() || left.RootPhase() != api.InstallationPhaseDeleteFailed {
		t.Fatalf("interrupted delete: %v %+v", err, left)
	}
	checkFinished(t, left)
	recorded := map[string]bool{}
	for _, it := range left.DeployItems() {
		recorded[it.ID] = true
	}
	for _, id := range m.Deployed() {
		if !recorded[id] {
			t.Errorf("%s still exists but is not recorded", id)
		}
	}
	// The items' scripted slow deletion is fixed by the next configuration;
	// the snapshot's config is what delete uses, so lift the delay there.
	for _, it := range left.DeployItems() {
		it.Config = []byte(`{}`)
	}
	if gone, err := e.Delete(context.Background(), left, DeleteOptions{}); err != nil || !gone.Empty() || len(m.Deployed()) != 0 {
		t.Fatalf("second delete: %v, left %v", err, m.Deployed())
	}
}

// checkFinished asserts that every object of the tree finished the root's job.
func checkFinished(t *testing.T, snap *Snapshot) {
	t.Helper()
	if snap == nil || snap.Empty() {
		t.Fatal("no snapshot")
	}
	job := snap.JobID()
	for _, in := range snap.Installations() {
		if in.JobID != job || in.JobIDFinished != job {
			t.Errorf("installation %s not finished with job (%s/%s)", in.Path, in.JobID, in.JobIDFinished)
		}
		if in.Execution != nil && (in.Execution.JobID != job || in.Execution.JobIDFinished != job) {
			t.Errorf("execution %s not finished with job", in.Path)
		}
	}
}
