package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// manifestInstallation is an Installation manifest deploying one
// ConfigMap named after the installation into the test namespace, with
// extra lines inserted under metadata and spec.
func (e *accEnv) manifestInstallation(name, metadata, spec string) string {
	blueprint := clusterBlueprint(`- name: namespace
  schema: {type: string}
`, manifestItem("cm", "", `{apiVersion: v1, kind: ConfigMap, metadata: {name: `+name+`, namespace: {{ .imports.namespace }}}, data: {from: manifest}}`), "")
	return fmt.Sprintf(`
resource "landscaper_installation" %[1]q {
  name     = %[1]q
  manifest = <<-EOT
    apiVersion: landscaper.gardener.cloud/v1alpha1
    kind: Installation
    metadata:
      name: %[1]s
%[3]s
    spec:
%[4]s
      blueprint:
        inline:
          filesystem:
            blueprint.yaml: |
%[5]s
      imports:
        targets:
        - {name: cluster, target: cluster}
        data:
        - {name: namespace, dataRef: ns}
  EOT
  manifest_objects = %[2]s
}
`, name, e.manifestObjectsHCL(), indentLines(strings.TrimRight(metadata, "\n"), "      "),
		indentLines(strings.TrimRight(spec, "\n"), "      "), indentLines(strings.TrimRight(blueprint, "\n"), "              "))
}

// What a manifest cannot mean here fails the plan, naming the field.
func TestAccInstallationManifest_errors(t *testing.T) {
	e := newAccEnv(t)
	steps := []resource.TestStep{}
	for _, c := range []struct{ metadata, spec, extra, want string }{
		{"", "optimisation: {}", "",
			`Installation "bad" \(manifest, document 1\): spec.optimisation: unknown field`},
		{"annotations: {landscaper.gardener.cloud/operation: interrupt}", "", "",
			`metadata.annotations\[landscaper.gardener.cloud/operation\]: "interrupt" cannot be applied from a manifest`},
		{"", "", "", ""}, // replaced below: blueprint next to manifest
	} {
		config := e.targetHCL + e.manifestInstallation("bad", c.metadata, c.spec)
		if c.want == "" {
			config = strings.Replace(config, `  name     = "bad"`, `  name     = "bad"
  blueprint = { inline = { "blueprint.yaml" = "" } }`, 1)
			c.want = `manifest gives the installation's blueprint, component descriptor, context, imports and data mappings; remove blueprint`
		}
		// The CLIs wrap diagnostics at any space.
		want := regexp.MustCompile(strings.ReplaceAll(c.want, " ", `\s+`))
		steps = append(steps, resource.TestStep{Config: config, ExpectError: want, PlanOnly: true})
	}
	resource.Test(t, resource.TestCase{ProtoV6ProviderFactories: testProviders, Steps: steps})
}

// The delete-without-uninstall annotation makes destroy forget what the
// installation deployed, as delete_without_uninstall does.
func TestAccInstallationManifest_deleteWithoutUninstall(t *testing.T) {
	e := newAccEnv(t)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(*terraform.State) error {
			if err := e.configMapData("kept", map[string]string{"from": "manifest"})(nil); err != nil {
				return fmt.Errorf("destroy uninstalled what it should have left: %w", err)
			}
			return e.kube.CoreV1().ConfigMaps(e.namespace).Delete(context.Background(), "kept", metav1.DeleteOptions{})
		},
		Steps: []resource.TestStep{{
			Config: e.targetHCL + e.manifestInstallation("kept", `annotations: {landscaper.gardener.cloud/delete-without-uninstall: "true"}`, ""),
			Check: resource.ComposeAggregateTestCheckFunc(
				e.configMapData("kept", map[string]string{"from": "manifest"}),
				resource.TestCheckResourceAttr("landscaper_installation.kept", "delete_without_uninstall", "false"),
			),
		}},
	})
}

// secretRef and configMapRef imports of a manifest are read from the host
// cluster in the installation's namespace, as the HCL form's
// imports.secrets / imports.config_maps are (TestAccInstallation_hostImports),
// and the Secret's value stays out of plan and state.
func TestAccInstallationManifest_hostImports(t *testing.T) {
	e := newAccEnv(t)
	ctx := context.Background()
	password := "pw-" + e.namespace
	if _, err := e.kube.CoreV1().Secrets(e.namespace).Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "source"},
		StringData: map[string]string{"password": password}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.kube.CoreV1().ConfigMaps(e.namespace).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "source"},
		Data: map[string]string{"color": "blue", "label": "one"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	manifest := fmt.Sprintf(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Installation
metadata:
  name: host
  namespace: %s
spec:
  blueprint:
    inline:
      filesystem:
        blueprint.yaml: |
%s
  imports:
    targets:
    - {name: cluster, target: cluster}
    data:
    - {name: namespace, dataRef: ns}
    - {name: password, secretRef: {name: source, key: password}}
    - {name: settings, configMapRef: {name: source}}
`, e.namespace, indentLines(strings.TrimRight(hostImportsBlueprint, "\n"), "          "))
	config := e.hostProviderHCL() + e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "host" {
  name      = "host"
  namespace = %[1]q
  manifest  = %[2]q
  manifest_objects = %[3]s
}
`, e.namespace, manifest, e.manifestObjectsHCL())
	inst := "landscaper_installation.host"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("from-host"),
		Steps: []resource.TestStep{{
			Config:           config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{planLacks{password}}},
			Check: resource.ComposeAggregateTestCheckFunc(
				e.secretValue("copied", "password", password), e.configMapData("from-host", map[string]string{"color": "blue"}),
				resource.TestCheckResourceAttr(inst, "exports.label", "one"), stateLacks(inst, password)),
		}},
	})
}
