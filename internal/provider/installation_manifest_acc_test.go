package provider

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// hclComparison renders the example's web-config Installation written in
// HCL (landscaper_rendered_installation, no cluster), to compare its
// deploy items with those the manifest form planned and deployed.
const hclComparison = `
resource "landscaper_target" "cluster" {
  name       = "local-cluster"
  kubeconfig = file(var.kubeconfig_path)
}

data "landscaper_rendered_installation" "web_hcl" {
  name      = "web-config"
  blueprint = { inline = yamldecode(data.landscaper_manifests.landscape.installations["web-config"].manifest).spec.blueprint.inline.filesystem }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = var.namespace, settings = { greeting = "hello", color = "teal" } }
  }
  import_data_mappings = { title = "(( settings.greeting \" from web-config\" ))" }
}

locals {
  web  = landscaper_installation.landscape["web-config"]
  tree = landscaper_installation.landscape["tree"]
  rows = keys(local.web.deploy_items)
  hcl  = data.landscaper_rendered_installation.web_hcl.deploy_items
  same = jsonencode(local.rows) == jsonencode([for i in local.hcl : "${i.installation}/${i.name}"])
}

# config_hash is keyed per resource, so the items are compared by what
# they are and by the configuration the HCL form renders, which must be
# what the manifest form deployed.
output "same_items_as_hcl" {
  # OpenTofu marks the comparison sensitive, Terraform 1.5 does not.
  value = try(nonsensitive(local.same), local.same)
}
output "hcl_config_data" { value = nonsensitive(jsondecode(local.hcl[0].config).manifests[0].manifest.data) }
output "web_items" { value = length(local.rows) }
output "phases" { value = "${local.web.phase},${local.tree.phase}" }
output "tree_items" { value = join(",", [for p in keys(local.tree.deploy_items) : replace(p, "/\\/[^/]*$/", "")]) }
output "errors" { value = length(local.web.deploy_item_errors) + length(local.tree.deploy_item_errors) }
`

// examples/landscaper-yaml applied as it is, with the real CLI: two
// Installation manifests (an inline blueprint with DataObject, target and
// data-mapping imports; a tree of subinstallations with a targetMap
// import) deploy their ConfigMaps and export through exportDataMappings.
// The deploy items are those the HCL form renders for the same blueprint
// and values; the next plan is empty; destroy removes everything.
func TestAccInstallation_landscaperYAMLExample(t *testing.T) {
	e := newAccEnv(t)
	dir := landscaperYAMLExample(t)
	main, err := os.ReadFile(filepath.Join(dir, "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	w := newCLIWorkspace(t, string(main)+hclComparison)
	vars := []string{"-var", "kubeconfig_path=" + localcluster.KubeconfigPath(t), "-var", "namespace=" + e.namespace,
		"-var", "manifests_dir=" + filepath.Join(dir, "manifests")}
	w.mustRun(append([]string{"apply", "-auto-approve", "-input=false"}, vars...)...)
	t.Cleanup(func() { _, _ = w.run(append([]string{"destroy", "-auto-approve", "-input=false"}, vars...)...) })

	var outputs map[string]struct {
		Value any `json:"value"`
	}
	if err := json.Unmarshal([]byte(w.mustRun("output", "-json")), &outputs); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]any{
		"same_items_as_hcl": true, "web_items": float64(1), "phases": "Succeeded,Succeeded", "errors": float64(0),
		"tree_items": "tree/reader,tree/writer", "web_summary": "entries 2",
		"tree_echoed":     "written by the writer, read by the reader",
		"hcl_config_data": map[string]any{"title": "hello from web-config", "color": "teal"},
	} {
		if got := outputs[name].Value; !reflect.DeepEqual(got, want) {
			t.Errorf("output %s = %#v, want %#v", name, got, want)
		}
	}
	for name, data := range map[string]map[string]string{
		"web-page":  {"title": "hello from web-config", "color": "teal"},
		"tree-note": {"message": "written by the writer, read by the reader"},
		"tree-copy": {"message": "written by the writer, read by the reader"},
	} {
		if err := e.configMapData(name, data)(nil); err != nil {
			t.Error(err)
		}
	}
	out := w.mustRun(append([]string{"plan", "-detailed-exitcode", "-input=false"}, vars...)...)
	if !strings.Contains(out, "No changes") {
		t.Errorf("the plan after apply is not empty:\n%s", out)
	}
	w.mustRun(append([]string{"destroy", "-auto-approve", "-input=false"}, vars...)...)
	if err := e.configMapsGone("web-page", "tree-note", "tree-copy")(nil); err != nil {
		t.Error(err)
	}
}
