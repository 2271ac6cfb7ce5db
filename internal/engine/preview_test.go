package engine

import (
	"context"
	"encoding/json"
	"io/fs"
	"reflect"
	"sort"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// TestRender_ListsEveryInstallation: the rendered tree lists the root, a
// rendered subinstallation and a pending one, parents first, each with the
// names it reads from and writes to its parent's scope, and why it is
// pending.
func TestRender_ListsEveryInstallation(t *testing.T) {
	comp := componentBlueprint("")
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "dbOut"), subinstallation("web", comp, "dbOut", "final")))
	tree, err := Render(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		Path, Pending          string
		ImportRefs, ExportRefs []string
	}
	var got []row
	for _, in := range tree.Installations {
		got = append(got, row{in.Path, in.Pending, in.ImportRefs, in.ExportRefs})
	}
	want := []row{
		{Path: "root"},
		{Path: "root/db", ImportRefs: []string{"cluster", "prefix"}, ExportRefs: []string{"dbOut"}},
		{Path: "root/web", Pending: tree.Unknown[0].Reason, ImportRefs: []string{"cluster", "dbOut"}, ExportRefs: []string{"final"}},
	}
	for i := range got {
		// The order of refs is the template's; compare them as sets.
		got[i].ImportRefs, got[i].ExportRefs = sortedCopy(got[i].ImportRefs), sortedCopy(got[i].ExportRefs)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("installations\n got %+v\nwant %+v", got, want)
	}
	if in, ok := tree.Installation("root/db"); !ok || in.Files() == nil {
		t.Errorf("root/db has no blueprint files")
	}
	if in, ok := tree.Installation("root/web"); !ok || in.Files() != nil {
		t.Errorf("pending root/web has files")
	}
}

// TestPreviewItems: each item's request has its config, the files of the
// blueprint that rendered it, its target resolved from its installation's
// imports, and the provider status its last apply recorded.
func TestPreviewItems(t *testing.T) {
	comp := componentBlueprint("")
	spec := rootSpec(t, treeBlueprint("", subinstallation("db", comp, "prefix", "dbOut")))
	tree, err := Render(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	status := json.RawMessage(`{"recorded":true}`)
	prev := &Snapshot{Root: &snapshot.Installation{Path: "root", Subinstallations: []*snapshot.Installation{{
		Path: "root/db", Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{{ID: "root/db/app", ProviderStatus: status}}},
	}}}}
	reqs := PreviewItems(tree, prev)
	if len(reqs) != len(tree.Items) {
		t.Fatalf("%d requests for %d items", len(reqs), len(tree.Items))
	}
	for i, r := range reqs {
		it := tree.Items[i]
		if r.Item.ID != it.ID || string(r.Item.Config) != string(it.Config) || r.Item.Type != it.Type {
			t.Errorf("request %d is %+v, not item %s", i, r.Item, it.ID)
		}
		if r.Item.Target == nil || r.Item.Target.Metadata.Name != "cluster" {
			t.Errorf("item %s: target %+v, want the cluster import", it.ID, r.Item.Target)
		}
		if _, err := fs.Stat(r.Item.Files, "blueprint.yaml"); err != nil {
			t.Errorf("item %s: files: %v", it.ID, err)
		}
		wantStatus := ""
		if it.ID == "root/db/app" {
			wantStatus = string(status)
		}
		if string(r.Item.ProviderStatus) != wantStatus {
			t.Errorf("item %s: provider status %s, want %q", it.ID, r.Item.ProviderStatus, wantStatus)
		}
	}
}

func sortedCopy(s []string) []string {
	if s == nil {
		return nil
	}
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}
