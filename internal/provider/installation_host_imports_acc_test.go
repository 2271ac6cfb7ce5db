package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// hostImportsBlueprint copies the Secret import into a Secret and one key
// of the ConfigMap import into a ConfigMap; another key of the ConfigMap
// import is used only by an export.
var hostImportsBlueprint = clusterBlueprint(`- name: namespace
  schema: {type: string}
- name: password
  schema: {type: string}
- name: settings
  schema: {type: object, additionalProperties: {type: string}}
`, manifestItem("copy", "",
	`{apiVersion: v1, kind: Secret, metadata: {name: copied, namespace: {{ .imports.namespace }}}, stringData: {password: {{ .imports.password | quote }}}}`,
	`{apiVersion: v1, kind: ConfigMap, metadata: {name: from-host, namespace: {{ .imports.namespace }}}, data: {color: {{ .imports.settings.color | quote }}}}`),
	`exports:
- name: label
  schema: {type: string}
exportExecutions:
- name: exports
  type: GoTemplate
  template: |
    exports:
      label: {{ .imports.settings.label | quote }}
`)

func (e *accEnv) hostImportsInstallation() string {
	return e.hostProviderHCL() + e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "host" {
  name      = "host"
  namespace = %[1]q
  blueprint = { inline = { "blueprint.yaml" = %[2]q } }
  imports = {
    targets     = { cluster = landscaper_target.cluster.target }
    data        = { namespace = %[1]q }
    secrets     = { password = { name = "source", namespace = %[1]q, key = "password" } }
    config_maps = { settings = { name = "source", namespace = %[1]q } }
  }
}
`, e.namespace, hostImportsBlueprint)
}

// Secret and ConfigMap imports of the host cluster (issue 10 item 7): the
// plan is empty while they are unchanged; a changed Secret value plans an
// update of the item that uses it, a changed ConfigMap key that only an
// export uses plans an update too; the Secret's value is neither in a plan
// nor in the non-sensitive state.
func TestAccInstallation_hostImports(t *testing.T) {
	e := newAccEnv(t)
	ctx := context.Background()
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	first, second := "pw1"+hex.EncodeToString(b), "pw2"+hex.EncodeToString(b)
	secrets, configMaps := e.kube.CoreV1().Secrets(e.namespace), e.kube.CoreV1().ConfigMaps(e.namespace)
	if _, err := secrets.Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "source"},
		StringData: map[string]string{"password": first}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := configMaps.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "source"},
		Data: map[string]string{"color": "blue", "label": "one"}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	inst := "landscaper_installation.host"
	noPassword := planLacks{first, second}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("from-host"),
		Steps: []resource.TestStep{
			{
				Config:           e.hostImportsInstallation(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{noPassword}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(inst, tfjsonpath.New("exports").AtMapKey("label"), knownvalue.StringExact("one")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					e.secretValue("copied", "password", first), e.configMapData("from-host", map[string]string{"color": "blue"}),
					stateLacks(inst, first)),
			},
			{
				// nothing changed: nothing to do (before: an update with deploy_items unknown, every time)
				Config:   e.hostImportsInstallation(),
				PlanOnly: true,
			},
			{
				PreConfig: func() {
					s, err := secrets.Get(ctx, "source", metav1.GetOptions{})
					if err != nil {
						t.Fatal(err)
					}
					s.Data = map[string][]byte{"password": []byte(second)}
					if _, err := secrets.Update(ctx, s, metav1.UpdateOptions{}); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.hostImportsInstallation(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate), noPassword,
					// the item that uses the Secret is planned as changed; the plan knows the items
					plancheck.ExpectKnownValue(inst, tfjsonpath.New("deploy_items").AtMapKey(e.namespace+".host/copy"), knownvalue.NotNull()),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(e.secretValue("copied", "password", second), stateLacks(inst, second)),
			},
			{
				PreConfig: func() {
					cm, err := configMaps.Get(ctx, "source", metav1.GetOptions{})
					if err != nil {
						t.Fatal(err)
					}
					cm.Data["label"] = "two"
					if _, err := configMaps.Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
						t.Fatal(err)
					}
				},
				Config: e.hostImportsInstallation(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(inst, tfjsonpath.New("exports").AtMapKey("label"), knownvalue.StringExact("two")),
				},
			},
			{
				Config:   e.hostImportsInstallation(),
				PlanOnly: true,
			},
		},
	})
}

// secretValue checks one key of a Secret in the test namespace.
func (e *accEnv) secretValue(name, key, want string) func(*terraform.State) error {
	return func(*terraform.State) error {
		s, err := e.kube.CoreV1().Secrets(e.namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if got := string(s.Data[key]); got != want {
			return fmt.Errorf("Secret %s data[%s] is not the imported value", name, key)
		}
		return nil
	}
}

// planLacks fails when any of the values appears anywhere in the plan.
type planLacks []string

func (p planLacks) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	b, err := json.Marshal(req.Plan)
	if err != nil {
		resp.Error = err
		return
	}
	for _, v := range p {
		if strings.Contains(string(b), v) {
			resp.Error = fmt.Errorf("a secret value is in the plan")
		}
	}
}

// stateLacks fails when the value appears in a non-sensitive attribute of
// the resource.
func stateLacks(name, value string) func(*terraform.State) error {
	return func(s *terraform.State) error {
		rs, ok := s.RootModule().Resources[name]
		if !ok {
			return fmt.Errorf("%s not in state", name)
		}
		for k, v := range rs.Primary.Attributes {
			sensitive := strings.HasPrefix(k, "sensitive_export_values") || strings.HasPrefix(k, "target_exports")
			if !sensitive && strings.Contains(v, value) {
				return fmt.Errorf("a secret value is in the state at %s", k)
			}
		}
		return nil
	}
}
