package engine

import (
	"context"
	"strings"
	"testing"
)

func TestDrift_ReportsChangedItems(t *testing.T) {
	// drift asks each item's deployer once and reports the drifted ones by ID
	e, m, _ := newEngine()
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	drifted, err := e.Drift(context.Background(), snap, spec.Blueprint, nil)
	if err != nil || len(drifted) != 0 {
		t.Fatalf("fresh apply drifted: %v %+v", err, drifted)
	}
	m.Remove("root/db/app")
	drifted, err = e.Drift(context.Background(), snap, spec.Blueprint, nil)
	if err != nil || len(drifted) != 1 || drifted[0].ID != "root/db/app" || drifted[0].Reason == "" {
		t.Fatalf("%v %+v", err, drifted)
	}
}

func TestDrift_UpdateOnChangeOnlyRepairedAfterMark(t *testing.T) {
	// an updateOnChangeOnly item found drifted is applied again by the next job once the snapshot is marked; unmarked ones still skip
	e, m, _ := newEngine()
	spec := RootSpec{Name: "root", Blueprint: loadBlueprint(t, itemsBlueprint(
		"- {name: once, type: landscaper.gardener.cloud/mock, updateOnChangeOnly: true}\n- {name: other, type: landscaper.gardener.cloud/mock, updateOnChangeOnly: true}"))}
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Remove("root/once")
	drifted, err := e.Drift(context.Background(), snap, spec.Blueprint, nil)
	if err != nil || len(drifted) != 1 {
		t.Fatalf("drift: %v %+v", err, drifted)
	}
	if !snap.MarkDrifted([]string{drifted[0].ID}) {
		t.Fatal("nothing marked")
	}
	applies := len(m.Events())
	if snap, err = e.Apply(context.Background(), spec, snap); err != nil {
		t.Fatal(err)
	}
	if got := m.Deployed(); len(got) != 2 {
		t.Fatalf("the drifted item was not repaired: deployed %v", got)
	}
	for _, ev := range m.Events()[applies:] {
		if ev.ID == "root/other" {
			t.Errorf("the unchanged, undrifted item was applied again")
		}
	}
	if snap.MarkDrifted([]string{"root/nothing"}) {
		t.Error("marked an item that does not exist")
	}
}

func TestDrift_LogsOneLinePerCheck(t *testing.T) {
	// each drift check logs what it read and found, once, for TF_LOG_PROVIDER=INFO timelines of a refresh
	e, m, log := newEngine()
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	m.Remove("root/db/app")
	before := len(log.lines)
	if _, err := e.Drift(context.Background(), snap, spec.Blueprint, nil); err != nil {
		t.Fatal(err)
	}
	lines := log.lines[before:]
	if len(lines) != 1 || !strings.HasPrefix(lines[0], "drift check finished") ||
		!strings.Contains(lines[0], "installationroot") || !strings.Contains(lines[0], "drifted1") {
		t.Fatalf("log lines of one drift check: %q", lines)
	}
}
