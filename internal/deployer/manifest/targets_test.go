package manifest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/checkout"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// secondCluster starts a cluster of its own for t (a second API server
// beside the local cluster), with the namespace ns, and returns its client
// and kubeconfig.
func secondCluster(t *testing.T, ns string) (kubernetes.Interface, string) {
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
	client, err := kubernetes.NewForConfig(c.RESTConfig())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := client.CoreV1().Namespaces().Create(context.Background(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	return client, string(c.Kubeconfig())
}

func putConfigMap(t *testing.T, c kubernetes.Interface, ns, name string, data map[string]string) {
	t.Helper()
	ctx := context.Background()
	obj := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: data}
	if _, err := c.CoreV1().ConfigMaps(ns).Create(ctx, obj, metav1.CreateOptions{}); err == nil {
		return
	}
	if _, err := c.CoreV1().ConfigMaps(ns).Update(ctx, obj, metav1.UpdateOptions{}); err != nil {
		t.Error(err)
	}
}

// TestTargetName_ReadWaitDeleteOnTheNamedTarget: with Landscaper's
// targetName (v0.110, additional targets) an export is read from the named
// target's cluster while the item's own cluster holds a same-named object
// of another value, a readiness check waits for the object there (a
// same-named, ready object on the item's cluster does not let it pass),
// and a destroy deletes the deletion group's objects there and leaves the
// same-named objects on the item's cluster alone.
func TestTargetName_ReadWaitDeleteOnTheNamedTarget(t *testing.T) {
	ns := localcluster.Namespace(t)
	primary, err := kubernetes.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	secondary, secondaryKubeconfig := secondCluster(t, ns)
	for _, c := range []struct {
		client kubernetes.Interface
		value  string
	}{{primary, "primary"}, {secondary, "secondary"}} {
		putConfigMap(t, c.client, ns, "shared", map[string]string{"v": c.value})
		putConfigMap(t, c.client, ns, "stray", map[string]string{"v": c.value})
	}
	putConfigMap(t, primary, ns, "ready-later", map[string]string{"ready": "true"})
	putConfigMap(t, secondary, ns, "ready-later", map[string]string{"ready": "false"})

	second := deployertest.KubernetesTarget(t, secondaryKubeconfig)
	second.Metadata.Name = "workload"
	ref := func(name string) map[string]any {
		return map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": name, "namespace": ns}
	}
	cfg := config(t, []map[string]any{entry("manage", cm(ns, "own", map[string]any{"a": "b"}))}, map[string]any{
		"exports": map[string]any{"exports": []any{
			map[string]any{"key": "here", "jsonPath": ".data.v", "fromResource": ref("shared")},
			map[string]any{"key": "there", "jsonPath": ".data.v", "fromResource": ref("shared"), "targetName": "workload"},
		}},
		"readinessChecks": map[string]any{"custom": []any{map[string]any{
			"name": "workload-ready", "targetName": "workload", "resourceSelector": []any{ref("ready-later")},
			"requirements": []any{map[string]any{"jsonPath": ".data.ready", "operator": "==", "values": []any{map[string]any{"value": "true"}}}},
		}}},
		"deletionGroups": []any{map[string]any{"customResourceGroup": map[string]any{
			"targetName": "workload", "deleteAllResources": true,
			"resources": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "names": []any{"stray"}, "namespaces": []any{ns}}},
		}}, map[string]any{"predefinedResourceGroup": map[string]any{"type": "namespaced-resources"}}},
	})
	d := manifest.New(target.NewPool())
	item := deployer.Item{ID: "root/app", Name: "app", Type: manifest.Type, Target: deployertest.KubernetesTarget(t, localcluster.Kubeconfig(t)),
		Targets: map[string]*api.Target{"workload": second}, Config: cfg, Timeouts: deployer.Timeouts{Progressing: time.Minute}}

	const delay = 2 * time.Second
	go func() {
		time.Sleep(delay)
		putConfigMap(t, secondary, ns, "ready-later", map[string]string{"ready": "true"})
	}()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	started := time.Now()
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	if waited := time.Since(started); waited < delay {
		t.Errorf("Apply returned after %s, before the check's object on the named target was ready (%s)", waited, delay)
	}
	if res.Exports["here"] != "primary" || res.Exports["there"] != "secondary" {
		t.Errorf("exports %v, want here=primary (the item's cluster) and there=secondary (the named target's)", res.Exports)
	}

	item.ProviderStatus = res.ProviderStatus
	if err := d.Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := secondary.CoreV1().ConfigMaps(ns).Get(ctx, "stray", metav1.GetOptions{}); err == nil {
		t.Error("the deletion group's ConfigMap on the named target was not deleted")
	}
	if _, err := primary.CoreV1().ConfigMaps(ns).Get(ctx, "stray", metav1.GetOptions{}); err != nil {
		t.Errorf("the same-named ConfigMap on the item's own cluster: %v, want it left alone", err)
	}
	if _, err := primary.CoreV1().ConfigMaps(ns).Get(ctx, "own", metav1.GetOptions{}); err == nil {
		t.Error("the item's own ConfigMap was not deleted")
	}
}

// Without the installation's targets (a call that has none) a targetName
// is a terminal error naming it, never a read on the item's own cluster.
func TestTargetName_UnknownTargetFails(t *testing.T) {
	ns := localcluster.Namespace(t)
	cfg := config(t, nil, map[string]any{"exports": map[string]any{"exports": []any{map[string]any{"key": "k", "jsonPath": ".data.v",
		"fromResource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "x", "namespace": ns}, "targetName": "elsewhere"}}}})
	it := newItem(t, "unknown-target")
	_, err := it.apply(minute, cfg)
	if err == nil || !strings.Contains(err.Error(), `targetName "elsewhere" is none of the installation's target imports`) {
		t.Fatalf("Apply = %v, want an error naming the unknown target", err)
	}
}
