package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// Acceptance tests of the deploy item field table's honoured rows that
// only unit tests covered (issue 33 item 10). Each is one short apply,
// or a plan only.

// A CRD and a resource of its kind in one manifest item: the apply
// orders the CRD first and waits until it is served, so the resource is
// created in the same apply; destroy removes both.
func TestAccInstallation_crdAndItsResourceInOneApply(t *testing.T) {
	e := newAccEnv(t)
	group := e.namespace + ".fields3.example.com"
	crd := fmt.Sprintf(`{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, metadata: {name: gadgets.%[1]s},
  spec: {group: %[1]s, scope: Namespaced, names: {kind: Gadget, listKind: GadgetList, plural: gadgets, singular: gadget},
    versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]}}`, group)
	// The resource comes first in the item: the order is the deployer's.
	cr := fmt.Sprintf("{apiVersion: %s/v1, kind: Gadget, metadata: {name: one, namespace: %s}, spec: {size: 3}}", group, e.namespace)
	gadgets := schema.GroupVersionResource{Group: group, Version: "v1", Resource: "gadgets"}
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.crdGone("gadgets." + group),
		Steps: []resource.TestStep{{
			Config: inlineInstallation(e.targetHCL, "crd", e.namespace, manifestItem("gadget", "", cr, crd)),
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("landscaper_installation.crd", "phase", "Succeeded"),
				func(*terraform.State) error {
					obj, err := dyn.Resource(gadgets).Namespace(e.namespace).Get(context.Background(), "one", metav1.GetOptions{})
					if err != nil {
						return fmt.Errorf("the Gadget of the same apply: %w", err)
					}
					if size, _, _ := unstructuredInt(obj.Object, "spec", "size"); size != 3 {
						return fmt.Errorf("Gadget spec.size = %d, want 3", size)
					}
					return nil
				},
			),
		}},
	})
}

// crdGone checks that the CRD name no longer exists.
func (e *accEnv) crdGone(name string) func(*terraform.State) error {
	return func(*terraform.State) error {
		dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(e.t))
		if err != nil {
			return err
		}
		_, err = dyn.Resource(crdResource).Get(context.Background(), name, metav1.GetOptions{})
		switch {
		case err == nil:
			return fmt.Errorf("CRD %s still exists after destroy", name)
		case !apierrors.IsNotFound(err):
			return fmt.Errorf("CRD %s after destroy: %w", name, err)
		}
		return nil
	}
}

func unstructuredInt(obj map[string]any, path ...string) (int64, bool, error) {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return 0, false, nil
		}
		cur = m[p]
	}
	switch n := cur.(type) {
	case int64:
		return n, true, nil
	case float64:
		return int64(n), true, nil
	}
	return 0, false, nil
}

// The data source's mermaid and dot attributes, read through the CLI,
// draw the tree: its installations, items and dependsOn edges.
func TestAccRenderedInstallationDataSource_mermaidAndDot(t *testing.T) {
	ds := "data.landscaper_rendered_installation.app"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config: renderedTreeConfig(t, `{ replicas = 3 }`, `{ doubled = "(( replicas * 2 ))" }`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("mermaid"), knownvalue.StringRegexp(
					regexp.MustCompile(`(?s)^flowchart LR\n.*n1\["settings<br/>kubernetes-manifest<br/>target cluster"\].*subgraph i2\["installation producer"\].*\n  n1 --> n0\n`))),
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("dot"), knownvalue.StringRegexp(
					regexp.MustCompile(`(?s)^digraph landscape \{\n.*n1 \[label="settings\\nkubernetes-manifest\\ntarget cluster"\].*label="installation producer".*\n  n1 -> n0;\n.*\}\s*$`))),
			},
		}},
	})
}

// A plan needs no target cluster: with the target's API server
// unreachable, the plan of a new installation renders its items and
// previews their objects, and asks nothing of the cluster.
func TestAccInstallation_planWithTargetUnreachable(t *testing.T) {
	e := newAccEnv(t)
	kubeconfig := filepath.Join(t.TempDir(), "unreachable")
	unreachable := `apiVersion: v1
kind: Config
clusters: [{name: gone, cluster: {server: "https://127.0.0.1:1", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: not-used}}]
contexts: [{name: gone, context: {cluster: gone, user: u, namespace: default}}]
current-context: gone
`
	if err := os.WriteFile(kubeconfig, []byte(unreachable), 0o600); err != nil {
		t.Fatal(err)
	}
	targetHCL := fmt.Sprintf(`
resource "landscaper_target" "cluster" {
  name       = "cluster"
  kubeconfig = file(%q)
}
`, kubeconfig)
	cm := fmt.Sprintf("{apiVersion: v1, kind: ConfigMap, metadata: {name: app, namespace: %s}, data: {k: v}}", e.namespace)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		Steps: []resource.TestStep{{
			Config:             inlineInstallation(targetHCL, "offline", e.namespace, manifestItem("app", "", cm)),
			PlanOnly:           true,
			ExpectNonEmptyPlan: true,
		}},
	})
}

// imports.target_lists: a targetList import reaches the blueprint as a
// list, and a deploy item picks its target from it by index.
func TestAccInstallation_targetListImport(t *testing.T) {
	e := newAccEnv(t)
	bp := fmt.Sprintf(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: clusters
  type: targetList
  targetType: landscaper.gardener.cloud/kubernetes-cluster
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: app
      type: landscaper.gardener.cloud/kubernetes-manifest
      target: {import: clusters, index: 1}
      config:
        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
        kind: ProviderConfiguration
        manifests:
        - policy: manage
          manifest:
            apiVersion: v1
            kind: ConfigMap
            metadata: {name: listed, namespace: %s}
            data:
              count: {{ len .imports.clusters | quote }}
              second: {{ (index .imports.clusters 1).metadata.name | quote }}
`, e.namespace)
	config := e.targetHCL + fmt.Sprintf(`
resource "landscaper_target" "other" {
  name       = "other"
  kubeconfig = file(%q)
}

resource "landscaper_installation" "listed" {
  name      = "listed"
  namespace = %q
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { target_lists = { clusters = [landscaper_target.cluster.target, landscaper_target.other.target] } }
}
`, localcluster.KubeconfigPath(t), e.namespace, bp)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("listed"),
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("landscaper_installation.listed", "phase", "Succeeded"),
				e.configMapData("listed", map[string]string{"count": "2", "second": "other"}),
			),
		}},
	})
}

// delete_without_uninstall = true: the destroy forgets the installation
// and leaves what it deployed.
func TestAccInstallation_deleteWithoutUninstall(t *testing.T) {
	e := newAccEnv(t)
	cm := fmt.Sprintf("{apiVersion: v1, kind: ConfigMap, metadata: {name: kept, namespace: %s}, data: {k: v}}", e.namespace)
	config := strings.Replace(inlineInstallation(e.targetHCL, "forget", e.namespace, manifestItem("app", "", cm)),
		"  imports   =", "  delete_without_uninstall = true\n  imports   =", 1)
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapData("kept", map[string]string{"k": "v"}),
		Steps: []resource.TestStep{{
			Config: config,
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("landscaper_installation.forget", "delete_without_uninstall", "true"),
				e.configMapData("kept", map[string]string{"k": "v"}),
			),
		}},
	})
}
