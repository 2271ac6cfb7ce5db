package landscaperyaml

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// chainInstallation is an Installation manifest named name that imports
// the DataObjects and Targets in imports ("DataObject/x", "Target/y") and
// exports data export "out" as DataObject exportsTo (when set).
func chainInstallation(name, exportsTo string, imports ...string) string {
	m := "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Installation\nmetadata: {name: " + name + "}\nspec:\n" +
		"  blueprint: {inline: {filesystem: {blueprint.yaml: x}}}\n  imports:\n    data:\n"
	var targets []string
	for i, imp := range imports {
		kind, ref, _ := strings.Cut(imp, "/")
		if kind == KindTarget {
			targets = append(targets, ref)
			continue
		}
		m += "    - {name: in" + string(rune('a'+i)) + ", dataRef: \"" + ref + "\"}\n"
	}
	m += "    targets:\n"
	for i, ref := range targets {
		m += "    - {name: t" + string(rune('a'+i)) + ", targetMap: {k: \"" + ref + "\"}}\n"
	}
	if exportsTo != "" {
		m += "  exports:\n    data: [{name: out, dataRef: \"" + exportsTo + "\"}]\n    targets: [{name: cluster, target: " + name + "-cluster}]\n"
	}
	return m
}

// Installations that import what others export are ordered in stages;
// imports nobody in the set exports (DataObjects given as manifests)
// order nothing; a name that is not an object name is hashed on both
// sides, as Landscaper names the objects.
func TestStages(t *testing.T) {
	set, err := Parse("yaml", strings.Join([]string{
		chainInstallation("frontend", "", "DataObject/api-url", "DataObject/settings"),
		chainInstallation("api", "api-url", "DataObject/Database_URL", "Target/database-cluster"),
		chainInstallation("database", "Database_URL"),
		chainInstallation("monitoring", "", "DataObject/settings"),
	}, "---\n"))
	if err != nil {
		t.Fatal(err)
	}
	stages, err := Stages(set)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"database", "monitoring"}, {"api"}, {"frontend"}}
	if got, _ := json.Marshal(stages); string(got) != mustJSONString(want) {
		t.Fatalf("stages %s, want %s", got, mustJSONString(want))
	}
	for name, stream := range map[string]string{
		"cycle":       chainInstallation("a", "x", "DataObject/y") + "---\n" + chainInstallation("b", "y", "DataObject/x"),
		"self":        chainInstallation("a", "x", "DataObject/x"),
		"two writers": chainInstallation("a", "x") + "---\n" + chainInstallation("b", "x"),
	} {
		set, err := Parse("yaml", stream)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Stages(set); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func mustJSONString(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// ExportObjects writes what Landscaper's exports of the Installation would
// write, under the names its imports find them by: Convert of an
// importing Installation reads them as if they were on the cluster.
func TestExportObjects_FeedTheImporter(t *testing.T) {
	producer, err := Parse("manifest", chainInstallation("database", "Database_URL"))
	if err != nil {
		t.Fatal(err)
	}
	cluster := api.NewTarget("whatever", "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"apiVersion: v1"}`))
	out, err := ExportObjects(producer, "apps", map[string]any{"out": map[string]any{"url": "postgres://db:5432"}, "unrelated": 1},
		map[string]api.Target{"cluster": cluster})
	if err != nil {
		t.Fatal(err)
	}
	objects, err := Parse("manifest_objects", out)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	consumer, err := Parse("manifest", chainInstallation("api", "", "DataObject/Database_URL", "Target/database-cluster"))
	if err != nil {
		t.Fatal(err)
	}
	root, err := Convert(consumer, objects, "api", "apps")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := root.Imports.Data["ina"]; mustJSONString(got) != `{"url":"postgres://db:5432"}` {
		t.Errorf("data import %v", got)
	}
	if got := root.Imports.TargetMaps["ta"]["k"]; got.Metadata.Name != "database-cluster" || string(got.Spec.Config) != `{"kubeconfig":"apiVersion: v1"}` {
		t.Errorf("target import %+v", got)
	}
	// An export without a value yet writes nothing.
	if out, err := ExportObjects(producer, "apps", nil, nil); err != nil || out != "" {
		t.Errorf("no exports: %q %v", out, err)
	}
}
