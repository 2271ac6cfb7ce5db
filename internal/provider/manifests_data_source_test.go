package provider

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// landscaperYAMLExample is the absolute path of examples/landscaper-yaml.
func landscaperYAMLExample(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "examples", "landscaper-yaml"))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// The example's manifests are split by kind and name; the documents come
// back as written, the objects as one stream.
func TestAccManifestsDataSource_example(t *testing.T) {
	dir := filepath.Join(landscaperYAMLExample(t), "manifests")
	ds := "data.landscaper_manifests.m"
	data, err := os.ReadFile(filepath.Join(dir, "data.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := os.ReadFile(filepath.Join(dir, "tree.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	entry := func(name, manifest string) knownvalue.Check {
		return knownvalue.ObjectExact(map[string]knownvalue.Check{"name": knownvalue.StringExact(name),
			"namespace": knownvalue.StringExact("default"), "manifest": knownvalue.StringExact(manifest)})
	}
	dataDocs := strings.SplitN(string(data), "---\n", 2)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: `
data "landscaper_manifests" "m" {
  yaml = join("\n---\n", [for f in ["data.yaml", "tree.yaml", "web-config.yaml"] : file("` + dir + `/${f}")])
}
output "installations" { value = join(",", keys(data.landscaper_manifests.m.installations)) }
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("installations").AtMapKey("tree"), entry("tree", string(tree))),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("data_objects"), knownvalue.MapExact(map[string]knownvalue.Check{
					"web-settings": entry("web-settings", dataDocs[0]), "tree-message": entry("tree-message", dataDocs[1]),
				})),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("targets"), knownvalue.MapSizeExact(0)),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("objects"),
					knownvalue.StringExact(strings.TrimSuffix(dataDocs[0], "\n")+"\n---\n"+strings.TrimSuffix(dataDocs[1], "\n"))),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckOutput("installations", "tree,web-config"),
			),
		}},
	})
}

// A document Landscaper would refuse is an error on yaml naming it.
func TestAccManifestsDataSource_invalid(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: `
data "landscaper_manifests" "m" {
  yaml = <<-EOT
    apiVersion: landscaper.gardener.cloud/v1alpha1
    kind: DataObject
    metadata: {name: a}
    data: 1
    ---
    apiVersion: landscaper.gardener.cloud/v1alpha1
    kind: Target
    metadata: {name: t}
    spec: {type: x, configuration: {}}
  EOT
}
`,
			ExpectError: regexp.MustCompile(`Target "t" \(yaml, document 2\): spec.configuration: unknown field`),
		}},
	})
}
