package instance

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
)

// fakeAdopter adopts by returning the Landscaper status unchanged.
type fakeAdopter struct{ *mock.Deployer }

func (fakeAdopter) Adopt(_ context.Context, _ deployer.Item, from deployer.Landscaped) (json.RawMessage, error) {
	return from.ProviderStatus, nil
}

func migrationLandscape() *landscaperstate.Landscape {
	item := func(name, object, config string) *landscaperstate.DeployItem {
		return &landscaperstate.DeployItem{ObjectRef: deployer.ObjectRef{Kind: "DeployItem", Namespace: "ls", Name: object},
			Name: name, Type: "t", Config: json.RawMessage(config), Phase: "Succeeded", ProviderStatus: json.RawMessage(`{"of":"` + object + `"}`),
			Exports: json.RawMessage(`{"port":8080}`)}
	}
	return &landscaperstate.Landscape{Root: &landscaperstate.Installation{
		ObjectRef: deployer.ObjectRef{Kind: "Installation", Namespace: "ls", Name: "shop"}, Phase: "Succeeded", JobID: "j", JobIDFinished: "j",
		Execution: &landscaperstate.Execution{DeployItems: []*landscaperstate.DeployItem{item("a", "shop-a-x1", `{"n":1}`)}},
		Subinstallations: []*landscaperstate.Installation{{
			ObjectRef: deployer.ObjectRef{Kind: "Installation", Namespace: "ls", Name: "web-q8"}, SpecName: "web", Phase: "Succeeded", JobID: "j", JobIDFinished: "j",
			Execution: &landscaperstate.Execution{DeployItems: []*landscaperstate.DeployItem{item("b", "web-b-x2", `{"n":2}`), item("c", "web-c-x3", `{}`)}},
		}},
	}}
}

// TestAdoption_MatchesItemsByID: rendered items find Landscaper's
// DeployItems by "<root>/<subinstallation>/<item>", get the status the
// deployer's Adopt returns and Landscaper's exports; a configuration that
// differs (by value, not by formatting) is reported; items Landscaper has
// but the rendering lacks, and rendered items it lacks, are errors.
func TestAdoption_MatchesItemsByID(t *testing.T) {
	reg := deployer.NewRegistry()
	reg.Register("t", fakeAdopter{mock.New()})
	a := newAdoption(reg, "ls.shop", migrationLandscape())
	d, err := a.registry().Lookup("t")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	res, err := d.Apply(ctx, deployer.Item{ID: "ls.shop/a", Type: "t", Config: json.RawMessage(`{ "n": 1 }`)})
	if err != nil || string(res.ProviderStatus) != `{"of":"shop-a-x1"}` || res.Exports["port"] != float64(8080) {
		t.Fatalf("Apply of ls.shop/a = %+v, %v", res, err)
	}
	if _, err := d.Apply(ctx, deployer.Item{ID: "ls.shop/web/b", Type: "t", Config: json.RawMessage(`{"n":3}`)}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Apply(ctx, deployer.Item{ID: "ls.shop/web/zzz", Type: "t"}); err == nil || !strings.Contains(err.Error(), "Landscaper has no DeployItem for it") {
		t.Errorf("Apply of an item Landscaper lacks: err = %v", err)
	}
	if _, err := d.Apply(ctx, deployer.Item{ID: "ls.shop/web/c", Type: "other"}); err == nil || !strings.Contains(err.Error(), "has type other, but Landscaper's DeployItem ls/web-c-x3 has type t") {
		t.Errorf("Apply with another type: err = %v", err)
	}
	if got := a.differing(); len(got) != 1 || got[0] != "ls.shop/web/b" {
		t.Errorf("differing = %v, want [ls.shop/web/b]", got)
	}
	if err := a.unadopted(); err == nil || !strings.Contains(err.Error(), "DeployItem ls/web-c-x3 (deploy item ls.shop/web/c)") || strings.Contains(err.Error(), "shop-a-x1") {
		t.Errorf("unadopted = %v, want only ls.shop/web/c", err)
	}
	if err := d.Delete(ctx, deployer.Item{ID: "ls.shop/a"}, deployer.DeleteOptions{}); err == nil {
		t.Error("Delete during adoption succeeded")
	}
}

// TestAdoption_UnadoptableItemIsNotUnrendered (issue 26): an item that
// renders as Landscaper's DeployItem but whose deployer cannot adopt (the
// mock deployer) is refused as not adoptable; the job's error does not
// also claim that the Installation does not render it.
func TestAdoption_UnadoptableItemIsNotUnrendered(t *testing.T) {
	reg := deployer.NewRegistry()
	reg.Register("t", mock.New())
	a := newAdoption(reg, "ls.shop", migrationLandscape())
	d, err := a.registry().Lookup("t")
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Apply(context.Background(), deployer.Item{ID: "ls.shop/a", Type: "t", Config: json.RawMessage(`{"n":1}`)})
	if err == nil || !strings.Contains(err.Error(), "deploy item ls.shop/a renders as Landscaper's DeployItem ls/shop-a-x1, but items of type t cannot be adopted") {
		t.Fatalf("Apply of an item its deployer cannot adopt: err = %v", err)
	}
	if err := a.unadopted(); err == nil || strings.Contains(err.Error(), "ls.shop/a") || !strings.Contains(err.Error(), "ls.shop/web/b") {
		t.Errorf("unadopted = %v, want the items never rendered (web/b, web/c) and not ls.shop/a", err)
	}
}
