package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

func TestApply_SubinstallationDataFlow(t *testing.T) {
	// a sibling importing another's export waits for it; the same blueprint instantiated twice does not collide
	e, m, log := newEngine()
	comp := componentBlueprint(`delay: 20ms`)
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "dbOut"), subinstallation("web", comp, "dbOut", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if snap.RootPhase() != api.InstallationPhaseSucceeded {
		t.Fatalf("root phase %s", snap.RootPhase())
	}
	if got := snap.Exports()["url"]; got != "p-x-x" {
		t.Errorf("root export url = %v, want p-x-x (db exports p-x, web imports it)", got)
	}
	if got := strings.Join(m.Deployed(), ","); got != "root/base,root/db/app,root/web/app" {
		t.Errorf("deployed %s", got)
	}
	var dbEnd, webStart int
	for i, ev := range m.Events() {
		if ev.ID == "root/db/app" && !ev.Start {
			dbEnd = i
		}
		if ev.ID == "root/web/app" && ev.Start {
			webStart = i
		}
	}
	if webStart < dbEnd {
		t.Error("web was applied before db finished")
	}
	for _, in := range snap.Installations() {
		if in.JobID != snap.JobID() || in.JobIDFinished != snap.JobID() {
			t.Errorf("installation %s: jobID %s finished %s, root job %s", in.Path, in.JobID, in.JobIDFinished, snap.JobID())
		}
	}
	for _, it := range snap.DeployItems() {
		if it.JobIDFinished != snap.JobID() || it.Phase != api.DeployItemPhaseSucceeded {
			t.Errorf("item %s: %s finished=%v", it.ID, it.Phase, it.JobIDFinished == snap.JobID())
		}
	}
	if strings.Contains(log.text(), "SECRET-TOKEN") {
		t.Error("a target's kubeconfig reached the log")
	}
	next, err := e.Apply(context.Background(), spec, snap)
	if err != nil || next.JobID() == snap.JobID() {
		t.Errorf("second apply: %v, job %s vs %s: every apply starts a new job", err, next.JobID(), snap.JobID())
	}
}

func TestApply_SiblingCycle(t *testing.T) {
	// a cycle between siblings is a clear error before anything is deployed
	e, m, _ := newEngine()
	comp := componentBlueprint("")
	spec := rootSpec(t, treeBlueprint("", subinstallation("a", comp, "fromB", "fromA"), subinstallation("b", comp, "fromA", "fromB")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err == nil || !strings.Contains(err.Error(), "subinstallations depend on each other in a cycle: a -> b -> a") {
		t.Fatalf("error %v", err)
	}
	if len(m.Events()) != 0 {
		t.Errorf("deployed before the cycle was found: %v", m.Events())
	}
	if snap == nil || snap.RootPhase() != api.InstallationPhaseFailed || snap.JobID() != snap.JobIDFinished() {
		t.Errorf("snapshot %+v", snap)
	}
}

func TestApply_FailureNamesObjectAndPhase(t *testing.T) {
	// an error that reaches the user names the object and the phase; the failed sibling's successor fails too
	e, m, _ := newEngine()
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(`phase: Failed`), "prefix", "dbOut"),
		subinstallation("web", componentBlueprint(""), "dbOut", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"installation root: phase Progressing", "installation root/db: phase Progressing", "deploy item root/db/app failed", `predecessor subinstallation "db" did not succeed`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if got := strings.Join(m.Deployed(), ","); got != "root/base,root/db/app" {
		t.Errorf("deployed %s: web must not be deployed", got)
	}
	for _, in := range snap.Installations() {
		if in.JobIDFinished != snap.JobID() {
			t.Errorf("%s not finished", in.Path)
		}
	}
	if snap.RootPhase() != api.InstallationPhaseFailed || snap.Root.LastError == nil || snap.Root.LastError.Retryable {
		t.Errorf("root %s %+v: a scripted terminal failure is not retryable without a new configuration", snap.RootPhase(), snap.Root.LastError)
	}
}

func TestApply_OrphanedSubinstallationDeleted(t *testing.T) {
	// subinstallations the blueprint no longer renders are deleted with their deploy items
	e, m, _ := newEngine()
	comp := componentBlueprint("")
	snap, err := e.Apply(context.Background(), rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "dbOut"), subinstallation("web", comp, "dbOut", "final"))), nil)
	if err != nil {
		t.Fatal(err)
	}
	snap, err = e.Apply(context.Background(), rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "final"))), snap)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(m.Deployed(), ","); got != "root/base,root/db/app" {
		t.Errorf("deployed %s", got)
	}
	if n := len(snap.Installations()); n != 2 || snap.Exports()["url"] != "p-x" {
		t.Errorf("installations %d, url %v", n, snap.Exports()["url"])
	}
}

func TestApply_InvalidSpec(t *testing.T) {
	// a root without blueprint fails at once and still returns a finished snapshot
	e, _, _ := newEngine()
	snap, err := e.Apply(context.Background(), RootSpec{Name: "root"}, nil)
	if err == nil || snap == nil || snap.RootPhase() != api.InstallationPhaseFailed {
		t.Fatalf("%v %+v", err, snap)
	}
	b, _ := snapshot.Marshal(snap)
	if _, err := snapshot.Unmarshal(b); err != nil {
		t.Errorf("the failed job's snapshot must load again: %v", err)
	}
	if snap, err := e.Apply(context.Background(), RootSpec{}, nil); err == nil || snap == nil || !snap.Empty() {
		t.Errorf("a nameless root records nothing: %v %+v", err, snap)
	}
}

func TestApply_SnapshotRoundTrip(t *testing.T) {
	// the snapshot serialises deterministically and the next job starts from the decoded one
	e, _, _ := newEngine()
	comp := componentBlueprint("")
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := snapshot.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	decoded, err := snapshot.Unmarshal(a)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := snapshot.Marshal(decoded)
	if string(a) != string(b) {
		t.Fatalf("not deterministic:\n%s\n%s", a, b)
	}
	if strings.Count(string(a), `"version":2`) != 1 {
		t.Errorf("snapshot lacks its version: %s", a)
	}
	if _, err := e.Apply(context.Background(), spec, decoded); err != nil {
		t.Fatal(err)
	}
}

func TestApply_IndependentSiblingsConcurrently(t *testing.T) {
	// siblings without data flow between them run concurrently
	e, m, _ := newEngine()
	comp := componentBlueprint("delay: 100ms")
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "dbOut"), subinstallation("cache", comp, "prefix", "final")))
	if _, err := e.Apply(context.Background(), spec, nil); err != nil {
		t.Fatal(err)
	}
	started := map[string]int{}
	for i, ev := range m.Events() {
		if ev.Start {
			started[ev.ID] = i
		} else if ev.ID == "root/db/app" || ev.ID == "root/cache/app" {
			if _, ok := started["root/db/app"]; !ok {
				t.Fatal("cache finished before db started")
			}
			if _, ok := started["root/cache/app"]; !ok {
				t.Fatal("db finished before cache started")
			}
			return
		}
	}
	t.Fatal("no apply finished")
}
