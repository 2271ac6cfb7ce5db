package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

func TestDelete_TreeInReverseDataFlowOrder(t *testing.T) {
	// a sibling is deleted only after the siblings importing its exports are gone
	e, m, _ := newEngine()
	comp := componentBlueprint(`deleteDelay: 20ms`)
	snap, err := e.Apply(context.Background(), rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "dbOut"), subinstallation("web", comp, "dbOut", "final"))), nil)
	if err != nil {
		t.Fatal(err)
	}
	gone, err := e.Delete(context.Background(), snap, DeleteOptions{})
	if err != nil || !gone.Empty() {
		t.Fatalf("delete: %v, remaining %+v", err, gone)
	}
	if n := len(m.Deployed()); n != 0 {
		t.Errorf("%d items left in the cluster", n)
	}
	var webEnd, dbStart int
	for i, ev := range m.Events() {
		if ev.Op == "delete" && ev.ID == "root/web/app" && !ev.Start {
			webEnd = i
		}
		if ev.Op == "delete" && ev.ID == "root/db/app" && ev.Start {
			dbStart = i
		}
	}
	if dbStart < webEnd {
		t.Error("db was deleted before web, which imports its export")
	}
}

func TestDelete_DeleteFailedPropagates(t *testing.T) {
	// a DeleteFailed child makes every ancestor DeleteFailed, after all children finished; its predecessors stay
	e, m, _ := newEngine()
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "dbOut"),
		subinstallation("web", componentBlueprint("deleteFails: true"), "dbOut", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	left, err := e.Delete(context.Background(), snap, DeleteOptions{})
	if err == nil || left.Empty() {
		t.Fatalf("delete must fail: %v", err)
	}
	for _, want := range []string{"installation root: phase Deleting", "deploy item root/web/app was not deleted", `successor subinstallation "web" still exists`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if left.RootPhase() != api.InstallationPhaseDeleteFailed || left.JobID() != left.JobIDFinished() {
		t.Errorf("root %s", left.RootPhase())
	}
	if got := strings.Join(m.Deployed(), ","); got != "root/db/app,root/web/app" {
		t.Errorf("cluster %s: base is gone, web failed, db waits for web", got)
	}
	var ids []string
	for _, it := range left.DeployItems() {
		ids = append(ids, it.ID)
	}
	if strings.Join(ids, ",") != "root/db/app,root/web/app" {
		t.Errorf("snapshot keeps %v", ids)
	}
}

func TestDelete_WithoutUninstall(t *testing.T) {
	// delete-without-uninstall is honoured all the way down to the deployers
	e, m, _ := newEngine()
	spec := rootSpec(t, treeBlueprint("deleteFails: true", subinstallation("db", componentBlueprint("deleteFails: true"), "prefix", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	gone, err := e.Delete(context.Background(), snap, DeleteOptions{WithoutUninstall: true})
	if err != nil || !gone.Empty() {
		t.Fatalf("%v %+v", err, gone)
	}
	if n := len(m.Deployed()); n != 2 {
		t.Errorf("cluster has %d items; nothing may be uninstalled", n)
	}
}

func TestDelete_Empty(t *testing.T) {
	// deleting nothing succeeds
	e, _, _ := newEngine()
	if s, err := e.Delete(context.Background(), nil, DeleteOptions{}); err != nil || !s.Empty() {
		t.Fatalf("%v %+v", err, s)
	}
}
