package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testdeployer"
)

// extEnv is an acceptance environment whose test namespace holds
// Landscaper's DeployItems, served by the project's test deployer
// (started with flags) for the type testdeployer.Type.
type extEnv struct {
	*accEnv
	client dynamic.Interface
}

func newExtEnv(t *testing.T, flags ...string) *extEnv {
	t.Helper()
	e := &extEnv{accEnv: newAccEnv(t), client: landscaperfixture.Client(t)}
	testdeployer.Start(t, testdeployer.Build(t), localcluster.KubeconfigPath(t), e.namespace, flags...)
	return e
}

// providerHCL hands testdeployer.Type to external deployers watching the
// test namespace of the host cluster, with a pickup timeout.
func (e *extEnv) providerHCL(pickup string) string {
	return fmt.Sprintf(`
provider "landscaper" {
  kubernetes           = { config_path = %q }
  external_deployers   = [{ types = [%q], namespace = %q }]
  deploy_item_timeouts = { pickup = %q, abort = "5s" }
}
`, localcluster.KubeconfigPath(e.t), testdeployer.Type, e.namespace, pickup)
}

// testItem is a deploy item of the test deployer on the target "cluster"
// whose config fields are YAML flow entries (besides apiVersion, kind).
func testItem(name, fields string) string {
	return fmt.Sprintf(`- name: %s
  type: %s
  target: {import: cluster}
  config: {apiVersion: testdeployer.landscaper-terraform.io/v1alpha1, kind: ProviderConfiguration, %s}
`, name, testdeployer.Type, fields)
}

// chain is two installations: "producer" has the external item "app",
// which writes the ConfigMap "ext-app" and exports greeting; its
// export reaches "consumer", whose built-in manifest item writes it into
// the ConfigMap "consumer".
func (e *extEnv) chain(value string) string {
	app := testItem("app", fmt.Sprintf(`configMap: {name: ext-app, namespace: %s, data: {value: %q}}, exports: {greeting: hello-%s}`, e.namespace, value, value))
	producer := clusterBlueprint("", app, `exports:
- {name: greeting, schema: {type: string}}
exportExecutions:
- name: exports
  type: GoTemplate
  template: |
    exports:
      greeting: {{ .values.deployitems.app.greeting }}
`)
	consumer := clusterBlueprint("- {name: greeting, type: data, schema: {type: string}}", manifestItem("cm", "",
		fmt.Sprintf("{apiVersion: v1, kind: ConfigMap, metadata: {name: consumer, namespace: %s}, data: {value: '{{ .imports.greeting }}'}}", e.namespace)), "")
	return e.providerHCL("30s") + e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "producer" {
  name      = "producer"
  namespace = %[1]q
  blueprint = { inline = { "blueprint.yaml" = %[2]q } }
  imports   = { targets = { cluster = landscaper_target.cluster.target } }
}

resource "landscaper_installation" "consumer" {
  name      = "consumer"
  namespace = %[1]q
  blueprint = { inline = { "blueprint.yaml" = %[3]q } }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { greeting = landscaper_installation.producer.exports.greeting }
  }
}
`, e.namespace, producer, consumer)
}

// deployItems checks the DeployItems of the test namespace: n of them, all
// of testdeployer.Type and Succeeded.
func (e *extEnv) deployItems(n int) func(*terraform.State) error {
	return e.deployItemsOf(testdeployer.Type, n)
}

// deployItemsOf checks the DeployItems of the test namespace: n of them,
// all of itemType and Succeeded.
func (e *extEnv) deployItemsOf(want string, n int) func(*terraform.State) error {
	return func(*terraform.State) error {
		list, err := e.client.Resource(external.DeployItems).Namespace(e.namespace).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			return err
		}
		if len(list.Items) != n {
			return fmt.Errorf("%d DeployItems in %s, want %d", len(list.Items), e.namespace, n)
		}
		for _, di := range list.Items {
			itemType, _, _ := unstructured.NestedString(di.Object, "spec", "type")
			phase, _, _ := unstructured.NestedString(di.Object, "status", "phase")
			if itemType != want || phase != "Succeeded" {
				return fmt.Errorf("DeployItem %s: type %q phase %q", di.GetName(), itemType, phase)
			}
		}
		return nil
	}
}

// contractObjectsGone checks that no DeployItem, Target or Context is
// left in the test namespace.
func (e *extEnv) contractObjectsGone() error {
	for _, gvr := range []struct {
		kind string
		res  dynamic.NamespaceableResourceInterface
	}{{"DeployItem", e.client.Resource(external.DeployItems)}, {"Target", e.client.Resource(external.Targets)}, {"Context", e.client.Resource(external.Contexts)}} {
		list, err := gvr.res.Namespace(e.namespace).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			return err
		}
		for _, o := range list.Items {
			return fmt.Errorf("%s %s/%s left (deletion timestamp %v)", gvr.kind, e.namespace, o.GetName(), o.GetDeletionTimestamp())
		}
	}
	return nil
}

// An item of a type the provider hands to an external deployer goes
// through the DeployItem handshake: the test deployer deploys it, its
// export reaches a built-in item of another installation, an update runs
// a new job, and destroy deletes it through the deletion handshake.
func TestAccExternalDeployer_lifecycle(t *testing.T) {
	e := newExtEnv(t)
	producer := "landscaper_installation.producer"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(s *terraform.State) error {
			if err := e.configMapsGone("ext-app", "consumer")(s); err != nil {
				return err
			}
			return e.contractObjectsGone()
		},
		Steps: []resource.TestStep{
			{
				// the provider validates what it can of the opaque config
				Config:      e.providerHCL("30s") + inlineInstallation(e.targetHCL, "bad", e.namespace, "- {name: bad, type: "+testdeployer.Type+", target: {import: cluster}, config: {mode: fail}}"),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`(?s)deploy\s+item\s+"bad".*config\s+has\s+no\s+apiVersion`),
			},
			{
				Config: e.chain("1"),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.configMapData("ext-app", map[string]string{"value": "1"}),
					e.configMapData("consumer", map[string]string{"value": "hello-1"}),
					e.deployItems(1),
				),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(producer, tfjsonpath.New("exports"), knownvalue.ObjectExact(map[string]knownvalue.Check{
						"greeting": knownvalue.StringExact("hello-1"),
					})),
				},
			},
			{
				Config: e.chain("2"),
				Check: resource.ComposeAggregateTestCheckFunc(
					e.configMapData("ext-app", map[string]string{"value": "2"}),
					e.configMapData("consumer", map[string]string{"value": "hello-2"}),
					e.deployItems(1),
				),
			},
		},
	})
}

// A deployer that never answers: the item fails with the pickup timeout
// and Landscaper's ERR_TIMEOUT, and destroy still removes its objects
// without waiting for the deployer.
func TestAccExternalDeployer_pickupTimeout(t *testing.T) {
	e := newExtEnv(t, "-never")
	config := e.providerHCL("3s") + inlineInstallation(e.targetHCL, "silent", e.namespace,
		testItem("silent", fmt.Sprintf("configMap: {name: silent, namespace: %s}", e.namespace)))
	var start time.Time
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(s *terraform.State) error {
			if took := time.Since(start); took > 2*time.Minute {
				return fmt.Errorf("apply and destroy of an unanswered item took %s", took)
			}
			return e.contractObjectsGone()
		},
		Steps: []resource.TestStep{{
			PreConfig:   func() { start = time.Now() },
			Config:      config,
			ExpectError: regexp.MustCompile(`(?s)deploy item "silent".*no\s+deployer\s+of\s+type.*picked\s+up\s+the\s+job\s+within\s+3s.*\(ERR_TIMEOUT`),
		}},
	})
}

// zoneInstallation is an installation whose mock item on target tg
// exports "by": "built-in" from the built-in mock deployer's export, or
// "external" from the test deployer's exports, which also writes the
// ConfigMap named like the installation.
func (e *extEnv) zoneInstallation(name, tg string) string {
	item := fmt.Sprintf(`- name: zone
  type: landscaper.gardener.cloud/mock
  target: {import: cluster}
  config: {apiVersion: mock.deployer.landscaper.gardener.cloud/v1alpha1, kind: ProviderConfiguration, export: {by: built-in}, exports: {by: external}, configMap: {name: %s, namespace: %s}}
`, name, e.namespace)
	bp := clusterBlueprint("", item, `exports:
- {name: by, schema: {type: string}}
exportExecutions:
- name: exports
  type: GoTemplate
  template: |
    exports:
      by: {{ .values.deployitems.zone.by }}
`)
	return fmt.Sprintf(`
resource "landscaper_target" %[2]q {
  name       = %[2]q
  kubeconfig = file(%[4]q)
}

resource "landscaper_installation" %[1]q {
  name      = %[1]q
  namespace = %[5]q
  blueprint = { inline = { "blueprint.yaml" = %[3]q } }
  imports   = { targets = { cluster = landscaper_target.%[2]s.target } }
}
`, name, tg, bp, localcluster.KubeconfigPath(e.t), e.namespace)
}

// A built-in type handed out for one target only (a fenced environment):
// the item on target "fenced" goes to the external deployer, the one on
// another target stays with the built-in deployer.
func TestAccExternalDeployer_fencedTarget(t *testing.T) {
	e := newExtEnv(t, "-type", "landscaper.gardener.cloud/mock")
	config := fmt.Sprintf(`
provider "landscaper" {
  kubernetes         = { config_path = %q }
  external_deployers = [{ types = ["landscaper.gardener.cloud/mock"], namespace = %q, targets = ["fenced"] }]
}
`, localcluster.KubeconfigPath(t), e.namespace) + e.zoneInstallation("inner", "fenced") + e.zoneInstallation("outer", "open")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(s *terraform.State) error {
			if err := e.configMapsGone("inner")(s); err != nil {
				return err
			}
			return e.contractObjectsGone()
		},
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				e.configMapData("inner", nil),
				e.configMapsGone("outer"),
				e.deployItemsOf("landscaper.gardener.cloud/mock", 1),
			),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("landscaper_installation.inner", tfjsonpath.New("exports").AtMapKey("by"), knownvalue.StringExact("external")),
				statecheck.ExpectKnownValue("landscaper_installation.outer", tfjsonpath.New("exports").AtMapKey("by"), knownvalue.StringExact("built-in")),
			},
		}},
	})
}

// externalItems is an installation with one external item per name, each
// writing the ConfigMap of that name through the test deployer.
func (e *extEnv) externalItems(res string, names ...string) string {
	items := ""
	for _, n := range names {
		items += testItem(n, fmt.Sprintf("configMap: {name: %s, namespace: %s}", n, e.namespace))
	}
	return e.providerHCL("30s") + inlineInstallation(e.targetHCL, res, e.namespace, items)
}

// A lost state (state rm) recovered by import and by a plain apply: the
// inventory in the DeployItems' namespace gives the job what is deployed,
// so the same DeployItems are taken over, those the blueprint no longer
// renders are deleted through the deployer, and the plan after it is
// empty; destroy removes everything, the inventory last.
func TestAccExternalDeployer_lostState(t *testing.T) {
	requireAcc(t)
	e := newExtEnv(t)
	const res = "lost"
	addr := "landscaper_installation." + res
	w := newCLIWorkspace(t, e.externalItems(res, "a", "b", "c"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	uids := e.deployItemUIDs()
	if len(uids) != 3 {
		t.Fatalf("DeployItems after the first apply: %v", uids)
	}

	w.mustRun("state", "rm", addr)
	w.mustRun("import", "-input=false", addr, e.namespace+"/"+res)
	w.write(e.externalItems(res, "a", "b"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	if err := e.configMapsGone("c")(nil); err != nil {
		t.Fatalf("after import and apply: %v", err)
	}
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after the converging apply is not empty (%v):\n%s", err, out)
	}

	w.mustRun("state", "rm", addr)
	w.write(e.externalItems(res, "a"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	if err := e.configMapsGone("b", "c")(nil); err != nil {
		t.Fatalf("after a plain apply: %v", err)
	}
	after := e.deployItemUIDs()
	if len(after) != 1 {
		t.Fatalf("DeployItems after two lost states: %v", after)
	}
	for name, uid := range after {
		if uids[name] != uid {
			t.Errorf("DeployItem %s was replaced (uid %s, first %s), not taken over", name, uid, uids[name])
		}
	}

	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("a")(nil); err != nil {
		t.Fatal(err)
	}
	if err := e.contractObjectsGone(); err != nil {
		t.Fatal(err)
	}
	if p := e.inventoryParent(res); p != nil {
		t.Fatalf("destroy left the inventory %s/%s", p.Namespace, p.Name)
	}
}

// deployItemUIDs are the UIDs of the test namespace's DeployItems by name.
func (e *extEnv) deployItemUIDs() map[string]string {
	list, err := e.client.Resource(external.DeployItems).Namespace(e.namespace).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	out := map[string]string{}
	for _, di := range list.Items {
		out[di.GetName()] = string(di.GetUID())
	}
	return out
}
