package deployertest

import (
	"context"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// cluster reads and changes objects behind the deployer's back.
type cluster struct {
	dyn dynamic.Interface
}

func newCluster(t *testing.T) *cluster {
	t.Helper()
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return &cluster{dyn: dyn}
}

var configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}

// get returns the object, nil if it does not exist.
func (c *cluster) get(t *testing.T, gvr schema.GroupVersionResource, namespace, name string) *unstructured.Unstructured {
	t.Helper()
	var client dynamic.ResourceInterface = c.dyn.Resource(gvr)
	if namespace != "" {
		client = c.dyn.Resource(gvr).Namespace(namespace)
	}
	u, err := client.Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		t.Fatalf("reading %s %s/%s: %v", gvr.Resource, namespace, name, err)
	}
	return u
}

// configMapValue returns data.value of a ConfigMap, and whether it exists.
func (c *cluster) configMapValue(t *testing.T, namespace, name string) (string, bool) {
	t.Helper()
	u := c.get(t, configMaps, namespace, name)
	if u == nil {
		return "", false
	}
	v, _, _ := unstructured.NestedString(u.Object, "data", "value")
	return v, true
}

func (c *cluster) wantConfigMap(t *testing.T, namespace, name, want string) {
	t.Helper()
	got, ok := c.configMapValue(t, namespace, name)
	switch {
	case !ok:
		t.Fatalf("ConfigMap %s/%s does not exist", namespace, name)
	case got != want:
		t.Fatalf("ConfigMap %s/%s has value %q, want %q", namespace, name, got, want)
	}
}

// setConfigMapValue changes data.value as a user with kubectl edit would.
func (c *cluster) setConfigMapValue(t *testing.T, namespace, name, value string) {
	t.Helper()
	u := c.get(t, configMaps, namespace, name)
	if u == nil {
		t.Fatalf("ConfigMap %s/%s does not exist", namespace, name)
	}
	if err := unstructured.SetNestedField(u.Object, value, "data", "value"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.dyn.Resource(configMaps).Namespace(namespace).Update(context.Background(), u, metav1.UpdateOptions{FieldManager: "kubectl-edit"}); err != nil {
		t.Fatalf("changing ConfigMap %s/%s: %v", namespace, name, err)
	}
}

// deleteCRD removes a CRD a deployer leaves behind by design.
func (c *cluster) deleteCRD(name string) {
	crds := schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
	_ = c.dyn.Resource(crds).Delete(context.Background(), name, metav1.DeleteOptions{})
}
