package landscaperstate_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperrecording"
)

// The Manifest and ManifestObjects Read returns for each recorded root
// render, in this provider's engine, exactly the deploy items Landscaper's
// own controllers rendered (items, types, dependsOn, configuration): what
// a migration's first apply must find unchanged.
func TestRecorded_ManifestRendersWhatLandscaperRendered(t *testing.T) {
	recorded(t, func(t *testing.T, rec *landscaperrecording.Recording, land *landscaperstate.Landscape) {
		manifest, err := landscaperyaml.Parse("manifest", land.Manifest)
		if err != nil {
			t.Fatal(err)
		}
		objects, err := landscaperyaml.Parse("manifest_objects", land.ManifestObjects)
		if err != nil {
			t.Fatal(err)
		}
		root, err := landscaperyaml.Convert(manifest, objects, land.Root.Name, rec.Meta.HostNamespace)
		if err != nil {
			t.Fatal(err)
		}
		if len(root.Warnings) > 0 {
			t.Logf("warnings: %v", root.Warnings)
		}
		bp, comp, err := blueprint.Resolve(root.Blueprint, blueprint.ComponentSource{Inline: root.Component.Inline})
		if err != nil {
			t.Fatal(err)
		}
		tree, err := engine.Render(context.Background(), engine.RootSpec{Name: root.Name, Blueprint: bp, Component: comp, Imports: root.Imports,
			ImportDataMappings: root.ImportDataMappings, ExportDataMappings: root.ExportDataMappings}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(tree.Warnings) > 0 {
			t.Logf("blueprint warnings: %v", tree.Warnings)
		}
		if len(tree.Unknown) > 0 {
			t.Logf("not rendered without the siblings' exports: %+v", tree.Unknown)
		}
		items := map[string]*landscaperstate.DeployItem{}
		var walk func(path string, inst *landscaperstate.Installation)
		walk = func(path string, inst *landscaperstate.Installation) {
			if inst.Execution != nil {
				for _, di := range inst.Execution.DeployItems {
					items[path+"/"+di.Name] = di
				}
			}
			for _, sub := range inst.Subinstallations {
				walk(path+"/"+sub.SpecName, sub)
			}
		}
		walk(root.Name, land.Root)
		for _, it := range tree.Items {
			di := items[it.ID]
			if di == nil {
				t.Errorf("rendered %s, which Landscaper did not", it.ID)
				continue
			}
			delete(items, it.ID)
			if it.Type != di.Type || strings.Join(it.DependsOn, ",") != strings.Join(di.DependsOn, ",") {
				t.Errorf("%s: rendered type %s dependsOn %v; Landscaper %s %v", it.ID, it.Type, it.DependsOn, di.Type, di.DependsOn)
			}
			var got, want any
			if err := json.Unmarshal(it.Config, &got); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(di.Config, &want); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: rendered config\n%s\nLandscaper rendered\n%s", it.ID, it.Config, di.Config)
			}
		}
		if len(tree.Items) == 0 {
			t.Error("nothing rendered to compare")
		}
		for id := range items {
			if !unknown(tree, id) {
				t.Errorf("Landscaper rendered %s, this engine did not", id)
			}
		}
	})
}

// unknown: the item belongs to an installation the engine cannot render
// before apply (it imports a sibling's exports).
func unknown(tree *engine.RenderedTree, id string) bool {
	for _, u := range tree.Unknown {
		if strings.HasPrefix(id, u.Path+"/") {
			return true
		}
	}
	return false
}
