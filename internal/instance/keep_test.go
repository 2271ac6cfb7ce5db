package instance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// What an import keeps never holds a target with a configuration of its
// own (a kubeconfig), wherever the snapshot has it, nor a deploy item's
// configuration; targets that only refer to the provider block's
// kubeconfig are kept, and the original snapshot is left as it was.
func TestWithoutCredentials(t *testing.T) {
	secret := api.NewTarget("inline", "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"SECRET-KUBECONFIG"}`))
	ref := api.NewTarget("ref", "", api.KubernetesClusterTargetType, nil)
	ref.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: "x"}
	item := &snapshot.DeployItem{ID: "root/a", Name: "a", AppliedTarget: &secret, Config: json.RawMessage(`{"values":"SECRET-CONFIG"}`)}
	kept := &snapshot.DeployItem{ID: "root/b", Name: "b", AppliedTarget: &ref}
	s := &engine.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Name: "root",
		Targets: snapshot.TargetImports{
			Single: map[string]api.Target{"inline": secret, "ref": ref},
			Lists:  map[string][]api.Target{"mixed": {ref, secret}, "refs": {ref}},
			Maps:   map[string]map[string]api.Target{"mixed": {"x": secret}, "refs": {"x": ref}},
		},
		TargetExports: map[string]api.Target{"out": secret, "plain": ref},
		Execution:     &snapshot.Execution{DeployItems: []*snapshot.DeployItem{item, kept}},
	}}
	stripped, withheld := withoutCredentials(s, nil)
	b, err := snapshot.Marshal(stripped)
	if err != nil {
		t.Fatal(err)
	}
	for _, needle := range []string{"SECRET-KUBECONFIG", "SECRET-CONFIG"} {
		if strings.Contains(string(b), needle) {
			t.Errorf("what is kept holds %s:\n%s", needle, b)
		}
	}
	if strings.Join(withheld, ",") != "targetExports" {
		t.Errorf("withheld = %v, want [targetExports]", withheld)
	}
	r := stripped.Root
	if _, ok := r.Targets.Single["ref"]; !ok || len(r.Targets.Single) != 1 {
		t.Errorf("single target imports kept: %v", r.Targets.Single)
	}
	if _, ok := r.Targets.Lists["refs"]; !ok || len(r.Targets.Lists) != 1 {
		t.Errorf("target list imports kept: %v", r.Targets.Lists)
	}
	if _, ok := r.Targets.Maps["refs"]; !ok || len(r.Targets.Maps) != 1 {
		t.Errorf("target map imports kept: %v", r.Targets.Maps)
	}
	if _, ok := r.TargetExports["plain"]; !ok || len(r.TargetExports) != 1 {
		t.Errorf("target exports kept: %v", r.TargetExports)
	}
	items := r.Execution.DeployItems
	if items[0].AppliedTarget != nil || items[1].AppliedTarget == nil || items[0].Config != nil {
		t.Errorf("deploy items kept: applied targets %v, %v; config %s", items[0].AppliedTarget, items[1].AppliedTarget, items[0].Config)
	}
	if s.Root.Execution.DeployItems[0].AppliedTarget == nil || len(s.Root.Targets.Single) != 2 || s.Root.Execution.DeployItems[0].Config == nil {
		t.Error("withoutCredentials changed the snapshot it was given")
	}
}

// A write-only value is masked in what is kept, and a masked
// configuration is kept (masked) so that an import does not take the
// parents' unmasked one; the snapshot given is left as it was.
func TestWithoutCredentials_MasksWriteOnly(t *testing.T) {
	masked := &snapshot.DeployItem{ID: "root/a", Name: "a", Config: json.RawMessage(`{"token":"WO-VALUE"}`)}
	plain := &snapshot.DeployItem{ID: "root/b", Name: "b", Config: json.RawMessage(`{"x":"y"}`)}
	s := &engine.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Name: "root",
		Exports:   map[string]any{"out": "WO-VALUE"},
		Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{masked, plain}},
	}}
	mask := func(c *engine.Snapshot) {
		for _, it := range c.DeployItems() {
			it.Config = json.RawMessage(strings.ReplaceAll(string(it.Config), "WO-VALUE", snapshot.WriteOnlyMask))
		}
		c.Root.Exports["out"] = snapshot.WriteOnlyMask
	}
	stripped, _ := withoutCredentials(s, mask)
	b, err := snapshot.Marshal(stripped)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "WO-VALUE") {
		t.Errorf("what is kept holds the write-only value:\n%s", b)
	}
	items := stripped.Root.Execution.DeployItems
	if !items[0].Masked() || items[1].Config != nil {
		t.Errorf("kept configurations: %s, %s", items[0].Config, items[1].Config)
	}
	if !strings.Contains(string(s.Root.Execution.DeployItems[0].Config), "WO-VALUE") {
		t.Error("withoutCredentials changed the snapshot it was given")
	}
}
