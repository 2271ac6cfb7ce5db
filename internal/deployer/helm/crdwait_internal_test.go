package helm

import (
	"context"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/kube"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestCRDWait: the releases' client waits for CRDs it created until the
// API server says they are established (Helm's check), and leaves every
// other wait to Helm.
func TestCRDWait(t *testing.T) {
	ns := localcluster.Namespace(t)
	clients, err := target.NewPool().Clients(deployertest.KubernetesTarget(t, localcluster.Kubeconfig(t)))
	if err != nil {
		t.Fatal(err)
	}
	helmClient := kube.New(&clientGetter{clients: clients, namespace: ns})
	c := withCRDWait(helmClient)
	if _, ok := c.(crdWaitClient); !ok {
		t.Fatalf("Helm's client is not wrapped: %T", c)
	}
	var files []string
	for _, plural := range []string{"widgets", "gadgets", "gizmos"} {
		files = append(files, `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: `+plural+`.`+ns+`.example.com}
spec:
  group: `+ns+`.example.com
  names: {kind: K`+plural+`, plural: `+plural+`, singular: s`+plural+`}
  scope: Namespaced
  versions: [{name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}]
`)
	}
	crds, err := c.Build(strings.NewReader(strings.Join(files, "---\n")), false)
	if err != nil {
		t.Fatal(err)
	}
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	res := dyn.Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	t.Cleanup(func() {
		for _, r := range crds {
			_ = res.Delete(context.Background(), r.Name, metav1.DeleteOptions{})
		}
	})
	if !allCRDs(crds) {
		t.Fatal("CRDs not taken for CRDs")
	}
	if _, err := c.Create(crds); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(crds, time.Minute); err != nil {
		t.Fatal(err)
	}
	for _, r := range crds {
		live, err := res.Get(context.Background(), r.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		established := false
		conds, _, _ := unstructured.NestedSlice(live.Object, "status", "conditions")
		for _, cond := range conds {
			if m, _ := cond.(map[string]any); m["type"] == "Established" && m["status"] == "True" {
				established = true
			}
		}
		if !established {
			t.Errorf("Wait returned before %s was established: %v", r.Name, conds)
		}
	}

	// Anything else is Helm's wait: a ConfigMap is ready once it exists.
	cms, err := c.Build(strings.NewReader("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain, namespace: "+ns+"}\n"), false)
	if err != nil {
		t.Fatal(err)
	}
	if allCRDs(cms) || allCRDs(append(append(kube.ResourceList{}, crds...), cms...)) {
		t.Error("a list with another kind taken for CRDs alone")
	}
	if _, err := c.Create(cms); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(cms, time.Minute); err != nil {
		t.Fatal(err)
	}
}
