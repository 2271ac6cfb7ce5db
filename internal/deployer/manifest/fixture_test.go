package manifest_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// item is one manifest deploy item of a test, carrying its status from
// apply to apply as the engine does.
type item struct {
	t       *testing.T
	d       *manifest.Deployer
	counter *deployertest.RequestCounter
	id      string
	status  json.RawMessage
}

func newItem(t *testing.T, id string) *item {
	counter := &deployertest.RequestCounter{}
	return &item{t: t, d: manifest.New(target.NewPool(target.WithWrapTransport(counter.Wrap))), counter: counter, id: id}
}

func (it *item) di(cfg json.RawMessage) deployer.Item {
	return deployer.Item{ID: it.id, Name: it.id, Type: manifest.Type, Target: deployertest.KubernetesTarget(it.t, localcluster.Kubeconfig(it.t)),
		Config: cfg, ProviderStatus: it.status, Timeouts: deployer.Timeouts{Progressing: time.Minute}}
}

func (it *item) apply(timeout time.Duration, cfg json.RawMessage) (deployer.Result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	res, err := it.d.Apply(ctx, it.di(cfg))
	it.status = res.ProviderStatus
	return res, err
}

func (it *item) mustApply(cfg json.RawMessage) deployer.Result {
	it.t.Helper()
	res, err := it.apply(time.Minute, cfg)
	if err != nil {
		it.t.Fatalf("Apply: %v", err)
	}
	return res
}

func (it *item) mustDelete(cfg json.RawMessage) {
	it.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := it.d.Delete(ctx, it.di(cfg), deployer.DeleteOptions{}); err != nil {
		it.t.Fatalf("Delete: %v", err)
	}
}

func dyn(t *testing.T) dynamic.Interface {
	t.Helper()
	d, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

var (
	configMaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
)

// getObject returns the object or nil if it does not exist.
func getObject(t *testing.T, gvr schema.GroupVersionResource, ns, name string) *unstructured.Unstructured {
	t.Helper()
	u, err := dyn(t).Resource(gvr).Namespace(ns).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		return nil
	}
	return u
}

func cm(ns, name string, data map[string]any) map[string]any {
	return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": name, "namespace": ns}, "data": data}
}

func entry(policy string, obj map[string]any) map[string]any {
	return map[string]any{"policy": policy, "manifest": obj}
}

func config(t *testing.T, entries []map[string]any, extra map[string]any) json.RawMessage {
	cfg := map[string]any{"apiVersion": "manifest.deployer.landscaper.gardener.cloud/v1alpha2", "kind": "ProviderConfiguration", "manifests": entries}
	for k, v := range extra {
		cfg[k] = v
	}
	return deployertest.MustJSON(t, cfg)
}

func dataOf(t *testing.T, ns, name string) map[string]string {
	t.Helper()
	u := getObject(t, configMaps, ns, name)
	if u == nil {
		return nil
	}
	d, _, _ := unstructured.NestedStringMap(u.Object, "data")
	return d
}

const minute = time.Minute

var secrets = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}

func unstructuredOf(obj map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: obj}
}

func ownerOf(itemID string) string { return deployer.OwnerValue(itemID) }
