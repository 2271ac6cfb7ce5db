package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// startSecondCluster starts a second API server (a cluster of its own
// beside the local cluster) for t, with the namespace ns; it returns its
// client and the path of its kubeconfig.
func startSecondCluster(t *testing.T, ns string) (kubernetes.Interface, string) {
	t.Helper()
	root, err := checkout.Root()
	if err != nil {
		t.Fatal(err)
	}
	c, err := localcluster.Start(context.Background(), localcluster.Options{Root: root, LogDir: t.TempDir()})
	if err != nil {
		t.Fatalf("second cluster: %v", err)
	}
	t.Cleanup(func() { _ = c.Stop() })
	path := filepath.Join(t.TempDir(), "second.kubeconfig")
	if err := os.WriteFile(path, c.Kubeconfig(), 0o600); err != nil {
		t.Fatal(err)
	}
	client, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return client, path
}

func createConfigMap(t *testing.T, c kubernetes.Interface, ns, name string, data map[string]string) {
	t.Helper()
	if _, err := c.CoreV1().ConfigMaps(ns).Create(context.Background(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: data}, metav1.CreateOptions{}); err != nil {
		t.Error(err)
	}
}

// An installer on the primary cluster whose configuration names the other
// target import (Landscaper's targetName, v0.110) reads its export from
// the second cluster while the primary holds a same-named object, waits
// for a readiness check on the second cluster (a same-named ready object
// on the primary does not let it pass), and its destroy deletes the
// deletion group's objects on the second cluster and leaves the
// primary's objects of that kind alone (issue 33 item 3).
func TestAccInstallation_targetNameOnASecondCluster(t *testing.T) {
	e := newAccEnv(t)
	ns := e.namespace
	second, secondPath := startSecondCluster(t, ns)
	for _, c := range []struct {
		client kubernetes.Interface
		value  string
	}{{e.kube, "primary"}, {second, "secondary"}} {
		createConfigMap(t, c.client, ns, "shared", map[string]string{"v": c.value})
		createConfigMap(t, c.client, ns, "stray", map[string]string{"v": c.value})
	}
	createConfigMap(t, e.kube, ns, "ready-later", map[string]string{"ready": "true"})

	blueprint := fmt.Sprintf(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: cluster, targetType: landscaper.gardener.cloud/kubernetes-cluster}
- {name: workload, targetType: landscaper.gardener.cloud/kubernetes-cluster}
exports:
- {name: here, schema: {type: string}}
- {name: there, schema: {type: string}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: app
      type: landscaper.gardener.cloud/kubernetes-manifest
      target: {import: cluster}
      timeout: 1m
      config:
        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
        kind: ProviderConfiguration
        manifests:
        - policy: manage
          manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: installer, namespace: %[1]s}, data: {a: b}}
        exports:
          exports:
          - {key: here, jsonPath: .data.v, fromResource: {apiVersion: v1, kind: ConfigMap, name: shared, namespace: %[1]s}}
          - key: there
            jsonPath: .data.v
            fromResource: {apiVersion: v1, kind: ConfigMap, name: shared, namespace: %[1]s}
            targetName: {{ .imports.workload.metadata.name }}
        readinessChecks:
          custom:
          - name: workload-ready
            targetName: {{ .imports.workload.metadata.name }}
            resourceSelector: [{apiVersion: v1, kind: ConfigMap, name: ready-later, namespace: %[1]s}]
            requirements: [{jsonPath: .data.ready, operator: "==", values: [{value: "true"}]}]
        deletionGroups:
        - customResourceGroup:
            targetName: {{ .imports.workload.metadata.name }}
            deleteAllResources: true
            resources: [{apiVersion: v1, kind: ConfigMap, names: [stray], namespaces: [%[1]s]}]
        - predefinedResourceGroup: {type: namespaced-resources}
exportExecutions:
- name: exports
  type: GoTemplate
  template: |
    exports:
      here: {{ .values.deployitems.app.here }}
      there: {{ .values.deployitems.app.there }}
`, ns)
	config := e.targetHCL + fmt.Sprintf(`
resource "landscaper_target" "workload" {
  name       = "workload"
  kubeconfig = file(%q)
}

resource "landscaper_installation" "app" {
  name      = "app"
  namespace = %q
  blueprint = { inline = { "blueprint.yaml" = %q } }
  imports   = { targets = { cluster = landscaper_target.cluster.target, workload = landscaper_target.workload.target } }
}
`, secondPath, ns, blueprint)
	const delay = 3 * time.Second
	var started time.Time
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy: func(*terraform.State) error {
			ctx := context.Background()
			if _, err := second.CoreV1().ConfigMaps(ns).Get(ctx, "stray", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
				return fmt.Errorf("the deletion group's ConfigMap on the second cluster: %w, want it deleted", err)
			}
			if _, err := e.kube.CoreV1().ConfigMaps(ns).Get(ctx, "stray", metav1.GetOptions{}); err != nil {
				return fmt.Errorf("the primary's ConfigMap of the same name: %w, want it left alone", err)
			}
			return e.configMapsGone("installer")(nil)
		},
		Steps: []resource.TestStep{{
			PreConfig: func() {
				started = time.Now()
				go func() {
					time.Sleep(delay)
					createConfigMap(t, second, ns, "ready-later", map[string]string{"ready": "true"})
				}()
			},
			Config: config,
			Check: func(*terraform.State) error {
				if waited := time.Since(started); waited < delay {
					return fmt.Errorf("apply finished after %s, before the check's object on the second cluster existed (%s)", waited, delay)
				}
				return nil
			},
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue("landscaper_installation.app", tfjsonpath.New("exports"),
				knownvalue.ObjectExact(map[string]knownvalue.Check{"here": knownvalue.StringExact("primary"), "there": knownvalue.StringExact("secondary")}))},
		}},
	})
}
