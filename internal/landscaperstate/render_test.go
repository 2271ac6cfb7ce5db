package landscaperstate_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
	fixture "github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
)

// TestRead_ManifestRendersWhatIsDeployed: the Manifest and
// ManifestObjects Read returns are valid input of the manifest form, and
// this provider's engine renders from them exactly the deploy items
// Landscaper recorded (same items, types, dependsOn and configuration),
// so a migration's first apply has nothing to change.
func TestRead_ManifestRendersWhatIsDeployed(t *testing.T) {
	land := read(t, fixtureLandscape().Host)
	manifest, err := landscaperyaml.Parse("manifest", land.Manifest)
	if err != nil {
		t.Fatal(err)
	}
	objects, err := landscaperyaml.Parse("manifest_objects", land.ManifestObjects)
	if err != nil {
		t.Fatal(err)
	}
	root, err := landscaperyaml.Convert(manifest, objects, fixture.RootName, hostNS)
	if err != nil {
		t.Fatal(err)
	}
	if len(root.Warnings) > 0 || len(root.HostImports) > 0 {
		t.Errorf("warnings %v, host imports %v", root.Warnings, root.HostImports)
	}
	bp, comp, err := blueprint.Resolve(root.Blueprint, blueprint.ComponentSource{Inline: root.Component.Inline})
	if err != nil {
		t.Fatal(err)
	}
	tree, err := engine.Render(engine.RootSpec{Name: root.Name, Blueprint: bp, Component: comp, Imports: root.Imports,
		ImportDataMappings: root.ImportDataMappings, ExportDataMappings: root.ExportDataMappings}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tree.Unknown) > 0 {
		t.Fatalf("not rendered at plan: %+v", tree.Unknown)
	}

	recorded := map[string]*landscaperstate.DeployItem{}
	var walk func(path string, inst *landscaperstate.Installation)
	walk = func(path string, inst *landscaperstate.Installation) {
		for _, di := range inst.Execution.DeployItems {
			recorded[path+"/"+di.Name] = di
		}
		for _, sub := range inst.Subinstallations {
			walk(path+"/"+sub.SpecName, sub)
		}
	}
	walk(fixture.RootName, land.Root)

	if len(tree.Items) != len(recorded) {
		t.Errorf("rendered %d items, Landscaper recorded %d", len(tree.Items), len(recorded))
	}
	for _, it := range tree.Items {
		di := recorded[it.ID]
		if di == nil {
			t.Errorf("rendered %s, which Landscaper did not record", it.ID)
			continue
		}
		if it.Type != di.Type || strings.Join(it.DependsOn, ",") != strings.Join(di.DependsOn, ",") {
			t.Errorf("%s: rendered type %s dependsOn %v; recorded %s %v", it.ID, it.Type, it.DependsOn, di.Type, di.DependsOn)
		}
		var got, want any
		if err := json.Unmarshal(it.Config, &got); err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(di.Config, &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: rendered config\n%s\nLandscaper recorded\n%s", it.ID, it.Config, di.Config)
		}
	}
}
