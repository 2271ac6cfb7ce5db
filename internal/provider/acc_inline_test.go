package provider

import (
	"fmt"
	"strings"
)

// inlineInstallation is the HCL of an installation named name, in the
// test namespace unless namespace says otherwise, whose inline blueprint
// imports the target "cluster" (landscaper_target.cluster, which
// targetHCL declares) and renders items: YAML list entries of
// deployItems.
func inlineInstallation(targetHCL, name, namespace, items string) string {
	blueprint := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
` + indentLines(strings.TrimRight(items, "\n"), "    ") + "\n"
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
`, name, ns, blueprint)
}

// manifestItem is a kubernetes-manifest deploy item on the target
// "cluster" applying manifests (YAML flow objects); extra adds fields of
// the item (YAML lines).
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
		item += "    - {policy: manage, manifest: " + m + "}\n"
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
