package external_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testdeployer"
)

func TestMain(m *testing.M) { localcluster.Main(m) }

// Timeouts of the deployers under test: short, so each timeout is seen.
const (
	pickupTimeout = 3 * time.Second
	// Half of it ends a job after an abort: under a loaded machine the
	// client's rate limiter alone took more than 1 s of it.
	abortTimeout = 4 * time.Second
)

// world is one namespace with a running test deployer: DeployItems,
// Targets, Contexts, export Secrets and the deployed ConfigMaps all live
// there, in the local cluster.
type world struct {
	client    dynamic.Interface
	namespace string
	target    *api.Target
}

func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{client: landscaperfixture.Client(t), namespace: localcluster.Namespace(t), target: deployertest.KubernetesTarget(t, localcluster.Kubeconfig(t))}
	testdeployer.Start(t, testdeployer.Build(t), localcluster.KubeconfigPath(t), w.namespace)
	return w
}

func (w *world) deployer() *external.Deployer {
	return external.New(external.Options{Client: w.client, Namespace: w.namespace})
}

// item is an item of the test deployer's type; id names it uniquely.
func (w *world) item(id string, cfg testdeployer.Config) deployer.Item {
	cfg.APIVersion, cfg.Kind = "testdeployer.landscaper-terraform.io/v1alpha1", "ProviderConfiguration"
	raw, err := json.Marshal(cfg)
	if err != nil {
		panic(err)
	}
	return deployer.Item{ID: "ext/" + id, Name: id, Type: testdeployer.Type, Target: w.target, Config: raw,
		Timeouts: deployer.Timeouts{Progressing: time.Minute, Pickup: pickupTimeout, Abort: abortTimeout}}
}

// configMap is the config part that deploys one ConfigMap named name.
func (w *world) configMap(name, value string) *testdeployer.ConfigMapSpec {
	return &testdeployer.ConfigMapSpec{Name: name, Namespace: w.namespace, Data: map[string]string{"value": value}}
}

func (w *world) res(gvr schema.GroupVersionResource) dynamic.ResourceInterface {
	return w.client.Resource(gvr).Namespace(w.namespace)
}

// get reads an object of the world's namespace; nil if it does not exist.
func (w *world) get(t *testing.T, gvr schema.GroupVersionResource, name string) *unstructured.Unstructured {
	t.Helper()
	obj, err := w.res(gvr).Get(context.Background(), name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	return obj
}

var (
	configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	secrets    = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
)

var metav1UpdateOptions = metav1.UpdateOptions{}

// gvrOf is the resource of an object the external deployer writes.
func gvrOf(ref deployer.ObjectRef) schema.GroupVersionResource {
	switch ref.Kind {
	case "DeployItem":
		return external.DeployItems
	case "Target":
		return external.Targets
	case "Context":
		return external.Contexts
	}
	return secrets
}

// status decodes the provider status an Apply returned.
func status(t *testing.T, res deployer.Result) external.ProviderStatus {
	t.Helper()
	var s external.ProviderStatus
	if err := json.Unmarshal(res.ProviderStatus, &s); err != nil || s.Name == "" {
		t.Fatalf("provider status %s: %v", res.ProviderStatus, err)
	}
	return s
}

func nested(obj *unstructured.Unstructured, path ...string) string {
	v, _, _ := unstructured.NestedFieldNoCopy(obj.Object, path...)
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// waitFor returns once done holds for the object named name (nil: it
// does not exist), following it with a watch.
func (w *world) waitFor(t *testing.T, gvr schema.GroupVersionResource, name string, within time.Duration, done func(*unstructured.Unstructured) bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), within)
	defer cancel()
	if err := w.await(ctx, gvr, name, done); err != nil {
		t.Fatal(err)
	}
}

// cancelAt returns a context that is cancelled once the DeployItem of
// item is in phase.
func (w *world) cancelAt(t *testing.T, item deployer.Item, phase string) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	wctx, stop := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(stop)
	go func() {
		defer cancel()
		if err := w.await(wctx, external.DeployItems, external.ObjectName(item.ID), func(u *unstructured.Unstructured) bool {
			return u != nil && nested(u, "status", "phase") == phase
		}); err != nil {
			t.Error(err)
		}
	}()
	return ctx
}

func (w *world) await(ctx context.Context, gvr schema.GroupVersionResource, name string, done func(*unstructured.Unstructured) bool) error {
	selector := fields.OneTermEqualSelector("metadata.name", name).String()
	list, err := w.res(gvr).List(ctx, metav1.ListOptions{FieldSelector: selector})
	if err != nil {
		return err
	}
	var cur *unstructured.Unstructured
	if len(list.Items) > 0 {
		cur = &list.Items[0]
	}
	if done(cur) {
		return nil
	}
	wt, err := w.res(gvr).Watch(ctx, metav1.ListOptions{FieldSelector: selector, ResourceVersion: list.GetResourceVersion()})
	if err != nil {
		return err
	}
	defer wt.Stop()
	for {
		select {
		case ev, open := <-wt.ResultChan():
			if !open {
				return fmt.Errorf("the watch of %s %s ended", gvr.Resource, name)
			}
			obj, _ := ev.Object.(*unstructured.Unstructured)
			if ev.Type == watch.Deleted {
				obj = nil
			}
			if ev.Type != watch.Error && ev.Type != watch.Bookmark && done(obj) {
				return nil
			}
		case <-ctx.Done():
			return fmt.Errorf("%s %s: condition not met: %w", gvr.Resource, name, ctx.Err())
		}
	}
}
