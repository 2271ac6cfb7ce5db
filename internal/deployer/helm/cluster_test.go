package helm_test

import (
	"context"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

type clusterReader struct{ c kubernetes.Interface }

func newClusterReader(t testing.TB) clusterReader {
	t.Helper()
	c, err := kubernetes.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return clusterReader{c}
}

func (r clusterReader) configMapData(t *testing.T, ns, name string) map[string]string {
	t.Helper()
	cm, err := r.c.CoreV1().ConfigMaps(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("ConfigMap %s/%s: %v", ns, name, err)
	}
	return cm.Data
}

func (r clusterReader) namespaceExists(t *testing.T, name string) bool {
	t.Helper()
	_, err := r.c.CoreV1().Namespaces().Get(context.Background(), name, metav1.GetOptions{})
	return err == nil
}

func deleteNamespace(t *testing.T, name string) {
	_ = newClusterReader(t).c.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{})
}

var metav1GetOptions = metav1.GetOptions{}
