package engine

import (
	"context"
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
