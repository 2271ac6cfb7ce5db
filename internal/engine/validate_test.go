package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

func TestRender_DeployersRejectConfigs(t *testing.T) {
	// an unknown type and a config its deployer's parser rejects are render errors naming installation, execution and item; apply deploys nothing
	tests := []struct{ name, item, want string }{
		{"UnknownType", "- {name: odd, type: example.com/nobody-serves-this}", `no deployer for deploy item type "example.com/nobody-serves-this"`},
		{"InvalidConfig", "- {name: odd, type: landscaper.gardener.cloud/mock, config: {delay: soon}}", `delay "soon" is not a duration`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, m, _ := newEngine()
			spec := RootSpec{Name: "root", Blueprint: loadBlueprint(t, itemsBlueprint("- {name: fine, type: landscaper.gardener.cloud/mock}\n"+tt.item))}
			if _, err := Render(context.Background(), spec, nil); err != nil {
				t.Fatalf("rendering alone knows no deployers: %v", err)
			}
			_, err := e.Render(context.Background(), spec, nil)
			for _, want := range []string{"installation root", `deploy execution "main"`, `deploy item "odd"`, tt.want} {
				if err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("render error %v should contain %q", err, want)
				}
			}
			if _, err := e.Apply(context.Background(), spec, nil); err == nil || len(m.Events()) != 0 {
				t.Errorf("apply must fail before deploying anything: %v, %d calls", err, len(m.Events()))
			}
		})
	}
}

func TestApply_LateRenderedItemsChecked(t *testing.T) {
	// a subinstallation rendered only during the job (it imports a sibling's export) has its items checked before they run
	e, m, _ := newEngine()
	bad := componentBlueprint("delay: soon")
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "dbOut"), subinstallation("web", bad, "dbOut", "final")))
	snap, err := e.Apply(context.Background(), spec, nil)
	if err == nil || !strings.Contains(err.Error(), `delay "soon"`) || !strings.Contains(err.Error(), `deploy execution "main"`) {
		t.Fatalf("apply: %v", err)
	}
	for _, ev := range m.Events() {
		if ev.ID == "root/web/app" {
			t.Fatalf("the invalid item was applied: %+v", ev)
		}
	}
	if gone, err := e.Delete(context.Background(), snap, DeleteOptions{}); err != nil || !gone.Empty() || len(m.Deployed()) != 0 {
		t.Fatalf("delete: %v %+v, left %v", err, gone, m.Deployed())
	}
}

// withForeignItem adds to the root's execution a failed item of a type no
// deployer serves, with the given provider status.
func withForeignItem(snap *Snapshot, status string) *Snapshot {
	c := snap.Clone()
	it := &snapshot.DeployItem{ID: "root/foreign", Name: "foreign", Type: "example.com/unknown", Phase: api.DeployItemPhaseFailed,
		LastError: &snapshot.Error{Operation: "Reconcile", Message: "no deployer"}}
	if status != "" {
		it.ProviderStatus = []byte(status)
	}
	c.Root.Execution.DeployItems = append(c.Root.Execution.DeployItems, it)
	return c
}

func TestDelete_UnknownTypeNeverDeployed(t *testing.T) {
	// an item of an unknown type that recorded nothing is forgotten without a deployer; the rest is deleted
	e, m, _ := newEngine()
	snap, err := e.Apply(context.Background(), RootSpec{Name: "root", Blueprint: loadBlueprint(t, itemsBlueprint("- {name: a, type: landscaper.gardener.cloud/mock}"))}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gone, err := e.Delete(context.Background(), withForeignItem(snap, ""), DeleteOptions{})
	if err != nil || !gone.Empty() || len(m.Deployed()) != 0 {
		t.Fatalf("delete: %v, remaining %+v, left %v", err, gone, m.Deployed())
	}
	// with delete-without-uninstall nothing is asked of any deployer
	if gone, err := e.Delete(context.Background(), withForeignItem(snap, `{"x":1}`), DeleteOptions{WithoutUninstall: true}); err != nil || !gone.Empty() {
		t.Fatalf("delete without uninstall: %v %+v", err, gone)
	}
	// but what an unknown deployer recorded is not silently forgotten
	left, err := e.Delete(context.Background(), withForeignItem(snap, `{"x":1}`), DeleteOptions{})
	if err == nil || left.Empty() || !strings.Contains(err.Error(), "example.com/unknown") {
		t.Fatalf("an unknown type with a provider status must fail clearly: %v %+v", err, left)
	}
}
