package treegraph

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/installation"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const (
	manifestType = "landscaper.gardener.cloud/kubernetes-manifest"
	helmType     = "landscaper.gardener.cloud/helm"
)

// shop is a rendered landscape: a root with two items (one waits for the
// other), a database subinstallation with a Helm item, a cache with two
// executions and an app that waits for both siblings' exports.
func shop() *engine.RenderedTree {
	one := 1
	pending := `imports exports of subinstallation "cache", known only after it is applied`
	return &engine.RenderedTree{
		Items: []engine.RenderedItem{
			{ID: "shop/namespace", Installation: "shop", Name: "namespace", Type: manifestType, Execution: "base", Target: &api.TargetSelector{Import: "cluster"}},
			{ID: "shop/db-secret", Installation: "shop", Name: "db-secret", Type: manifestType, Execution: "base", Target: &api.TargetSelector{Import: "cluster"}, DependsOn: []string{"namespace"}},
			{ID: "shop/db/postgres", Installation: "shop/db", Name: "postgres", Type: helmType, Execution: "default", Target: &api.TargetSelector{Import: "clusters", Index: &one}},
			{ID: "shop/cache/redis", Installation: "shop/cache", Name: "redis", Type: helmType, Execution: "server", Target: &api.TargetSelector{Import: "regions", Key: "eu"}},
			{ID: "shop/cache/monitor", Installation: "shop/cache", Name: "monitor", Type: "example.com/probe", Execution: "monitoring", DependsOn: []string{"redis"}},
		},
		Unknown: []installation.UnknownInstallation{{Path: "shop/app", Reason: pending}},
		Installations: []engine.RenderedInstallation{
			{Path: "shop"},
			{Path: "shop/db", ExportRefs: []string{"dbURL"}, ImportRefs: []string{"cluster"}},
			{Path: "shop/cache", ExportRefs: []string{"cacheHost", "cachePort"}},
			{Path: "shop/app", ImportRefs: []string{"cachePort", "dbURL", "cacheHost", "cluster"}, Pending: pending},
		},
	}
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs from the golden file (run with -update after checking):\n%s", name, got)
	}
}

// TestGolden: the shop's Mermaid and DOT pictures, byte for byte.
func TestGolden(t *testing.T) {
	tree := FromRendered("shop", shop())
	golden(t, "shop.mmd", Mermaid(tree))
	golden(t, "shop.dot", DOT(tree))
}

// TestStable: the order in which the engine lists items does not change
// the picture.
func TestStable(t *testing.T) {
	want := Mermaid(FromRendered("shop", shop())) + DOT(FromRendered("shop", shop()))
	for range 20 {
		r := shop()
		rand.Shuffle(len(r.Items), func(i, j int) { r.Items[i], r.Items[j] = r.Items[j], r.Items[i] })
		tree := FromRendered("shop", r)
		if got := Mermaid(tree) + DOT(tree); got != want {
			t.Fatalf("a shuffled rendering draws differently:\n%s", got)
		}
	}
}

// TestFromRendered: the tree, its flows (only between siblings, only
// names one exports and the other imports) and resolved dependsOn.
func TestFromRendered(t *testing.T) {
	tree := FromRendered("shop", shop())
	want := []Flow{
		{From: "shop/cache", To: "shop/app", Names: []string{"cacheHost", "cachePort"}},
		{From: "shop/db", To: "shop/app", Names: []string{"dbURL"}},
	}
	if !reflect.DeepEqual(tree.Flows, want) {
		t.Errorf("flows = %+v, want %+v", tree.Flows, want)
	}
	var names []string
	walkAll(tree.Root, func(in *Installation) { names = append(names, in.Path) })
	if !reflect.DeepEqual(names, []string{"shop", "shop/app", "shop/cache", "shop/db"}) {
		t.Errorf("installations = %v", names)
	}
	cache := tree.Root.Subinstallations[1]
	if len(cache.Executions) != 2 || cache.Executions[0].Items[0].DependsOn[0] != "shop/cache/redis" {
		t.Errorf("cache = %+v", cache.Executions)
	}
	if tree.Root.Subinstallations[0].Pending == "" {
		t.Error("app is not pending")
	}
	// Without installations there is no data flow; a root without items is drawn.
	if tree := FromRendered("empty", &engine.RenderedTree{}); len(tree.Flows) != 0 || !strings.Contains(Mermaid(tree), "no deploy items") {
		t.Errorf("empty tree: %+v\n%s", tree, Mermaid(tree))
	}
}

// BenchmarkDraw_1000 draws 1,000 items in 100 installations, each item
// waiting for the one before it.
func BenchmarkDraw_1000(b *testing.B) {
	r := &engine.RenderedTree{}
	for i := range 1000 {
		inst := fmt.Sprintf("root/sub-%02d", i/10)
		it := engine.RenderedItem{ID: fmt.Sprintf("%s/item-%d", inst, i), Installation: inst, Name: fmt.Sprintf("item-%d", i),
			Type: manifestType, Execution: "default", Target: &api.TargetSelector{Import: "cluster"}}
		if i%10 > 0 {
			it.DependsOn = []string{fmt.Sprintf("item-%d", i-1)}
		}
		r.Items = append(r.Items, it)
	}
	for b.Loop() {
		tree := FromRendered("root", r)
		_, _ = Mermaid(tree), DOT(tree)
	}
}
