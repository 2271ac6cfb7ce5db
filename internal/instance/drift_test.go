package instance

import (
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// driftSnap is a root with one manifest item and a subinstallation with
// one item of subType in phase subPhase.
func driftSnap(subType string, subPhase api.DeployItemPhase) *engine.Snapshot {
	item := func(name, typ string, phase api.DeployItemPhase) *snapshot.DeployItem {
		return &snapshot.DeployItem{ID: "root/" + name, Name: name, Type: typ, Phase: phase}
	}
	return &engine.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Name: "root",
		Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{item("cm", manifest.Type, api.DeployItemPhaseSucceeded)}},
		Subinstallations: []*snapshot.Installation{{Path: "root/sub", Name: "sub",
			Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{item("sub", subType, subPhase)}}}},
	}}
}

// A refresh loads the blueprint (and its component) only when a deployed
// item's deployer may read its files: a Helm item anywhere in the tree, or
// a type this provider does not know to read none. Items that did not
// succeed are not checked for drift, so they need nothing.
func TestDriftReadsFiles(t *testing.T) {
	reg := deployer.NewRegistry()
	reg.Register(manifest.Type, manifest.New(nil))
	reg.Register(helm.Type, helm.New(nil))
	r := Runner{Engine: &engine.Engine{Deployers: reg}}
	for _, c := range []struct {
		name  string
		typ   string
		phase api.DeployItemPhase
		want  bool
	}{
		{"manifest items only", manifest.Type, api.DeployItemPhaseSucceeded, false},
		{"a Helm item in a subinstallation", helm.Type, api.DeployItemPhaseSucceeded, true},
		{"an unknown type", "example.com/container", api.DeployItemPhaseSucceeded, true},
		{"a failed Helm item", helm.Type, api.DeployItemPhaseFailed, false},
	} {
		if got := r.DriftReadsFiles(driftSnap(c.typ, c.phase)); got != c.want {
			t.Errorf("%s: DriftReadsFiles = %v, want %v", c.name, got, c.want)
		}
	}
	if r.DriftReadsFiles(&engine.Snapshot{}) {
		t.Error("an empty snapshot needs the blueprint")
	}
}
