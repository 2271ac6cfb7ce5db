package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// chainManifest is an Installation (JSON, which is YAML) with an inline
// blueprint that imports the target "cluster", the DataObject "ns" and
// the DataObject in (when set) as "in", deploys a ConfigMap named name
// holding "in", and exports "out" (the value template renders) into the
// DataObject out.
func chainManifest(t *testing.T, name, in, out, value string) string {
	t.Helper()
	imports := "- {name: cluster, targetType: landscaper.gardener.cloud/kubernetes-cluster}\n- {name: namespace, schema: {type: string}}\n"
	data := []map[string]string{{"name": "namespace", "dataRef": "ns"}}
	if in != "" {
		imports += "- {name: in, schema: {type: string}}\n"
		data = append(data, map[string]string{"name": "in", "dataRef": in})
	}
	bp := clusterBlueprint(imports, manifestItem(name, "", `{apiVersion: v1, kind: ConfigMap, metadata: {name: `+name+`, namespace: "{{ .imports.namespace }}"}, data: {in: '{{ .imports.in | default "none" }}'}}`),
		"exports:\n- {name: out, schema: {type: string}}\nexportExecutions:\n- type: GoTemplate\n  template: |\n    exports:\n      out: \""+value+"\"\n")
	bp = strings.Replace(bp, "imports:\n- name: cluster\n  targetType: landscaper.gardener.cloud/kubernetes-cluster\n", "imports:\n", 1)
	b, err := json.Marshal(map[string]any{
		"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "Installation", "metadata": map[string]any{"name": name},
		"spec": map[string]any{
			"blueprint": map[string]any{"inline": map[string]any{"filesystem": map[string]string{"blueprint.yaml": bp}}},
			"imports":   map[string]any{"targets": []any{map[string]string{"name": "cluster", "target": "cluster"}}, "data": data},
			"exports":   map[string]any{"data": []any{map[string]string{"name": "out", "dataRef": out}}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Root Installations that chain through DataObjects, as `kubectl apply -f
// dir/` applies them to Landscaper: database exports into the DataObject
// Database_URL (not an object name: hashed as Landscaper names it), api
// imports it and exports api-endpoint, frontend imports that. The
// landscaper_manifests data source orders them in stages, one
// landscaper_installation block per stage (count; for_each works as
// well, but the test harness cannot check string-keyed instances) adds
// the earlier stages' export_objects to its manifest_objects, and the
// chain deploys with the
// values flowing through; the next plan is empty, destroy removes all.
func TestAccInstallation_manifestsChainThroughDataObjects(t *testing.T) {
	e := newAccEnv(t)
	dir := t.TempDir()
	stream := strings.Join([]string{
		chainManifest(t, "frontend", "api-endpoint", "unused", "done"),
		chainManifest(t, "api", "Database_URL", "api-endpoint", "http://api.{{ .imports.namespace }}/?db={{ .imports.in }}"),
		chainManifest(t, "database", "", "Database_URL", "postgres://database.{{ .imports.namespace }}:5432"),
		fmt.Sprintf(`{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "DataObject", "metadata": {"name": "ns"}, "data": %q}`, e.namespace),
	}, "\n---\n")
	file := filepath.Join(dir, "landscape.yaml")
	if err := os.WriteFile(file, []byte(stream), 0o600); err != nil {
		t.Fatal(err)
	}
	stage := func(i int, earlier string) string {
		return fmt.Sprintf(`
resource "landscaper_installation" "stage%[1]d" {
  count            = length(local.stages[%[1]d])
  name             = local.stages[%[1]d][count.index]
  namespace        = %[2]q
  manifest         = local.installations[local.stages[%[1]d][count.index]].manifest
  manifest_objects = join("\n---\n", concat([local.objects], [for i in [%[3]s] : i.export_objects]))
}
`, i, e.namespace, earlier)
	}
	config := fmt.Sprintf(`
provider "landscaper" {}

data "landscaper_manifests" "landscape" {
  yaml = file(%q)
}

locals {
  stages        = data.landscaper_manifests.landscape.stages
  installations = data.landscaper_manifests.landscape.installations
  objects = join("\n---\n", [data.landscaper_manifests.landscape.objects, yamlencode({
    apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "Target", metadata = { name = "cluster" }
    spec       = { type = "landscaper.gardener.cloud/kubernetes-cluster", config = { kubeconfig = file(%q) } }
  })])
}
`, file, localcluster.KubeconfigPath(t)) +
		stage(0, "") +
		stage(1, "for x in landscaper_installation.stage0 : x") +
		stage(2, "for x in concat(landscaper_installation.stage0, landscaper_installation.stage1) : x")
	stages := knownvalue.ListExact([]knownvalue.Check{
		knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("database")}),
		knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("api")}),
		knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("frontend")}),
	})
	db := "postgres://database." + e.namespace + ":5432"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("database", "api", "frontend"),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.landscaper_manifests.landscape", tfjsonpath.New("stages"), stages),
				statecheck.ExpectKnownValue("landscaper_installation.stage2[0]", tfjsonpath.New("phase"), knownvalue.StringExact("Succeeded")),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				e.configMapData("api", map[string]string{"in": db}),
				e.configMapData("frontend", map[string]string{"in": "http://api." + e.namespace + "/?db=" + db}),
			),
		}},
	})
}
