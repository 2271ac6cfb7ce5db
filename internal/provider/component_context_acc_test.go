package provider

import (
	"context"
	"encoding/base64"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

var (
	crdResource     = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	contextResource = schema.GroupVersionResource{Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "contexts"}
)

// An installation names a Landscaper Context on the host cluster (or names
// none and gets its namespace's default Context, when there is one): its
// repositoryContext locates the component version (the installation
// names none), and its registry pull secret holds the only credentials of
// the registry (the provider block has none), used at plan for the
// component and at apply for the charts. A Context that does not exist,
// or a component reference with neither repository context nor Context,
// fails the plan naming what is missing.
func TestAccInstallation_componentFromContext(t *testing.T) {
	e := newAccEnv(t)
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	installContextCRD(t, dyn)
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: "s3cret"})
	l := &ociLandscape{t: t, host: reg.Host(), push: componenttest.Remote("ci", "s3cret")}
	l.pushAll("only")
	ctx := context.Background()
	auths := fmt.Sprintf(`{"auths": {%q: {"auth": %q}}}`, "http://"+reg.Host(), base64.StdEncoding.EncodeToString([]byte("ci:s3cret")))
	_, err = e.kube.CoreV1().Secrets(e.namespace).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "pull"}, Type: corev1.SecretTypeDockerConfigJson,
		Data: map[string][]byte{corev1.DockerConfigJsonKey: []byte(auths)},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	lsContext := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion":          "landscaper.gardener.cloud/v1alpha1",
		"kind":                "Context",
		"metadata":            map[string]any{"name": "landscape", "namespace": e.namespace},
		"repositoryContext":   map[string]any{"type": "ociRegistry", "baseUrl": l.host + "/landscape"},
		"registryPullSecrets": []any{map[string]any{"name": "pull"}},
	}}
	if _, err := dyn.Resource(contextResource).Namespace(e.namespace).Create(ctx, lsContext, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	provider := fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %q }
  registry   = { cache_dir = %q }
}
`, localcluster.KubeconfigPath(t), t.TempDir())
	installation := func(contextLine string) string {
		return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" "app" {
  name      = "app"
  namespace = %[1]q
  %[2]s
  component_descriptor = {
    ref = { component_name = "example.com/app", version = "1.0.0" }
  }
  blueprint = { ref = { resource_name = "blueprint" } }
  imports = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { namespace = %[1]q, settings = { greeting = "hello" } }
  }
}
`, e.namespace, contextLine)
	}
	manifestForm := fmt.Sprintf(`
resource "landscaper_installation" "app" {
  name      = "app"
  namespace = %[1]q
  manifest = yamlencode({
    apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "Installation", metadata = { name = "app" }
    spec = {
      componentDescriptor = { ref = { componentName = "example.com/app", version = "1.0.0" } }
      blueprint           = { ref = { resourceName = "blueprint" } }
      imports = {
        targets = [{ name = "cluster", target = "cluster" }]
        data    = [{ name = "namespace", dataRef = "ns" }, { name = "settings", dataRef = "settings" }]
      }
    }
  })
  manifest_objects = join("\n---\n", [
    yamlencode({ apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "Target", metadata = { name = "cluster" },
    spec = { type = "landscaper.gardener.cloud/kubernetes-cluster", config = { kubeconfig = file(%[2]q) } } }),
    yamlencode({ apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "DataObject", metadata = { name = "ns" }, data = %[1]q }),
    yamlencode({ apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "DataObject", metadata = { name = "settings" }, data = { greeting = "manifest" } }),
  ])
}
`, e.namespace, localcluster.KubeconfigPath(t))
	inst := "landscaper_installation.app"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		CheckDestroy:             e.configMapsGone("lib-chart", "app-chart"),
		Steps: []resource.TestStep{
			{
				Config:      provider + installation(""),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`repository_context\s+is\s+not\s+set`),
			},
			{
				Config:      provider + installation(`context = "missing"`),
				PlanOnly:    true,
				ExpectError: regexp.MustCompile(`context\s+` + regexp.QuoteMeta(e.namespace) + `/missing:\s+not\s+found`),
			},
			{
				Config: provider + installation(`context = "landscape"`),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
					resource.TestCheckResourceAttr(inst, "component_digests.%", "3"),
					e.configMapData("lib-chart", map[string]string{"greeting": "hello", "component": "example.com/app"}),
					e.configMapData("app-chart", map[string]string{"greeting": "hello", "component": "example.com/app"}),
				),
			},
			{
				// context unset is the namespace's default Context, as in
				// Landscaper: the same Context as `default` gives the same.
				PreConfig: func() {
					lsContext.SetName("default")
					lsContext.SetResourceVersion("")
					if _, err := dyn.Resource(contextResource).Namespace(e.namespace).Create(ctx, lsContext, metav1.CreateOptions{}); err != nil {
						t.Fatal(err)
					}
				},
				Config: provider + installation(""),
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
					resource.TestCheckNoResourceAttr(inst, "context"),
					e.configMapData("app-chart", map[string]string{"greeting": "hello", "component": "example.com/app"}),
				),
			},
			{
				// So does the manifest form: no spec.context, no repositoryContext.
				Config: provider + manifestForm,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(inst, "phase", "Succeeded"),
					e.configMapData("app-chart", map[string]string{"greeting": "manifest", "component": "example.com/app"}),
				),
			},
		},
	})
}

// installContextCRD serves Landscaper's Context kind on the local cluster
// (schemaless, as far as these tests need it) and waits until it is
// established.
func installContextCRD(t *testing.T, dyn dynamic.Interface) {
	t.Helper()
	installLandscaperCRD(t, dyn, "Context", "contexts", "context")
}

// installLandscaperCRD serves one of Landscaper's kinds (schemaless) and
// waits until it is established.
func installLandscaperCRD(t *testing.T, dyn dynamic.Interface, kind, plural, singular string) {
	t.Helper()
	ctx := context.Background()
	name := plural + ".landscaper.gardener.cloud"
	crd := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiextensions.k8s.io/v1",
		"kind":       "CustomResourceDefinition",
		"metadata":   map[string]any{"name": name},
		"spec": map[string]any{
			"group": "landscaper.gardener.cloud",
			"scope": "Namespaced",
			"names": map[string]any{"kind": kind, "listKind": kind + "List", "plural": plural, "singular": singular},
			"versions": []any{map[string]any{"name": "v1alpha1", "served": true, "storage": true,
				"schema": map[string]any{"openAPIV3Schema": map[string]any{"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}},
		},
	}}
	if _, err := dyn.Resource(crdResource).Create(ctx, crd, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	list, err := dyn.Resource(crdResource).List(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + name})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) == 1 && established(&list.Items[0]) {
		return
	}
	w, err := dyn.Resource(crdResource).Watch(ctx, metav1.ListOptions{FieldSelector: "metadata.name=" + name, ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		if obj, ok := ev.Object.(*unstructured.Unstructured); ok && ev.Type != watch.Deleted && established(obj) {
			return
		}
	}
	t.Fatalf("CRD %s: watch ended before it was established", name)
}

func established(crd *unstructured.Unstructured) bool {
	conds, _, _ := unstructured.NestedSlice(crd.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m["type"] == "Established" && m["status"] == "True" {
			return true
		}
	}
	return false
}
