package provider

import (
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// inlineInstallation is the HCL of an installation named name, in the
// test namespace unless namespace says otherwise, whose inline blueprint
// (clusterBlueprint) imports the target "cluster" (landscaper_target.cluster,
// which targetHCL declares) and renders items: YAML list entries of
// deployItems.
func inlineInstallation(targetHCL, name, namespace, items string) string {
	ns := ""
	if namespace != "" {
		ns = fmt.Sprintf("\n  namespace = %q", namespace)
	}
	return targetHCL + fmt.Sprintf(`
resource "landscaper_installation" %[1]q {
  name      = %[1]q%[2]s
  blueprint = { inline = { "blueprint.yaml" = %[3]q } }
  imports   = { targets = { cluster = landscaper_target.cluster.target } }
}
`, name, ns, clusterBlueprint("", items, ""))
}

// pathInstallation is targetHCL and an installation named name, in the
// test namespace, of the blueprint directory dir that imports the target
// "cluster", the data "namespace" (the test namespace) and more (HCL
// object entries such as `values = { a = "1" }`, or "").
func (e *accEnv) pathInstallation(name, dir, more string) string {
	if more != "" {
		more = ", " + more
	}
	return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" %[1]q {
  name      = %[1]q
  namespace = %[2]q
  blueprint = { path = %[3]q }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[2]q%[4]s }
  }
}
`, name, e.namespace, dir, more)
}

// clusterBlueprint is a blueprint that imports the target "cluster" and
// imports (more YAML list entries of imports, or ""), renders items (YAML
// list entries of deployItems) in a GoTemplate deploy execution, and ends
// with rest (top-level fields such as exports and exportExecutions, or "").
func clusterBlueprint(imports, items, rest string) string {
	bp := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
`
	if imports != "" {
		bp += strings.TrimRight(imports, "\n") + "\n"
	}
	bp += `deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
` + indentLines(strings.TrimRight(items, "\n"), "    ") + "\n"
	return bp + rest
}

// hostProviderHCL is the provider block with the local cluster as the
// provider's host cluster (Secret and ConfigMap imports, Landscaper's
// objects).
func (e *accEnv) hostProviderHCL() string {
	return fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %q }
}
`, localcluster.KubeconfigPath(e.t))
}

// manifestObjectsHCL is the manifest_objects of an Installation manifest
// that imports the target "cluster" and the DataObject "ns", which holds
// the test namespace.
func (e *accEnv) manifestObjectsHCL() string {
	return fmt.Sprintf(`join("\n---\n", [landscaper_target.cluster.target, yamlencode({
    apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "DataObject", metadata = { name = "ns" }, data = %q
  })])`, e.namespace)
}

// manifestItem is a kubernetes-manifest deploy item on the target
// "cluster" applying manifests (each a YAML flow object or block) with
// policy manage; extra adds fields of the item (YAML lines).
func manifestItem(name, extra string, manifests ...string) string {
	item := fmt.Sprintf(`- name: %s
  type: landscaper.gardener.cloud/kubernetes-manifest
  target: {import: cluster}
`, name)
	if extra != "" {
		item += indentLines(strings.TrimRight(extra, "\n"), "  ") + "\n"
	}
	item += `  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    manifests:
`
	for _, m := range manifests {
		item += "    - policy: manage\n      manifest:\n" + indentLines(strings.TrimRight(m, "\n"), "        ") + "\n"
	}
	return item
}

// indentLines prefixes every line of s.
func indentLines(s, prefix string) string {
	if s == "" {
		return ""
	}
	return prefix + strings.ReplaceAll(s, "\n", "\n"+prefix)
}
