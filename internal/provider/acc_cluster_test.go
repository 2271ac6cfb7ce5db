package provider

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// accEnv is what one acceptance test needs of the local cluster: a fresh
// namespace, a client to check what really exists, and the HCL of a
// target on the cluster.
type accEnv struct {
	t         *testing.T
	namespace string
	kube      kubernetes.Interface
	targetHCL string
}

func newAccEnv(t *testing.T) *accEnv {
	t.Helper()
	kube, err := kubernetes.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return &accEnv{
		t:         t,
		namespace: localcluster.Namespace(t),
		kube:      kube,
		targetHCL: fmt.Sprintf(`
resource "landscaper_target" "cluster" {
  name       = "cluster"
  kubeconfig = file(%q)
}
`, localcluster.KubeconfigPath(t)),
	}
}

// blueprintDir is the absolute path of a test blueprint under testdata/.
func blueprintDir(t *testing.T, name string) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// configMapData checks that a ConfigMap in the test namespace has the data.
func (e *accEnv) configMapData(name string, want map[string]string) func(*terraform.State) error {
	return func(*terraform.State) error {
		cm, err := e.kube.CoreV1().ConfigMaps(e.namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("ConfigMap %s/%s: %w", e.namespace, name, err)
		}
		for k, v := range want {
			if cm.Data[k] != v {
				return fmt.Errorf("ConfigMap %s data[%s] = %q, want %q", name, k, cm.Data[k], v)
			}
		}
		if len(cm.Data) != len(want) {
			return fmt.Errorf("ConfigMap %s has data %v, want exactly %v", name, cm.Data, want)
		}
		return nil
	}
}

// configMapsGone checks that none of the ConfigMaps exists any more.
func (e *accEnv) configMapsGone(names ...string) func(*terraform.State) error {
	return func(*terraform.State) error {
		for _, name := range names {
			_, err := e.kube.CoreV1().ConfigMaps(e.namespace).Get(context.Background(), name, metav1.GetOptions{})
			if err == nil {
				return fmt.Errorf("ConfigMap %s/%s still exists", e.namespace, name)
			}
			if !apierrors.IsNotFound(err) {
				return err
			}
		}
		return nil
	}
}
