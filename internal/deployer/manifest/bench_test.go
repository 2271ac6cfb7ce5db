package manifest_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

func configMaps100(ns string) []map[string]any {
	var objs []map[string]any
	for i := range 100 {
		objs = append(objs, cm(ns, fmt.Sprintf("bench-%03d", i), map[string]any{"index": fmt.Sprint(i), "payload": strings.Repeat("x", 256)}))
	}
	return objs
}

func manageAll(objs []map[string]any) []map[string]any {
	var out []map[string]any
	for _, o := range objs {
		out = append(out, entry("manage", o))
	}
	return out
}

// TestApply_RequestsPerObject: creating an object costs one request, an
// unchanged re-apply one read and no write (discovery is cached by the pool).
func TestApply_RequestsPerObject(t *testing.T) {
	ns := localcluster.Namespace(t)
	it := newItem(t, "requests")
	cfg := config(t, manageAll(configMaps100(ns)), nil)
	it.mustApply(config(t, nil, nil)) // warms the pool's discovery cache
	it.counter.Reset()
	before := configMapRequests(t)
	it.mustApply(cfg)
	create := float64(it.counter.Reads()+it.counter.Writes()) / 100
	afterCreate := configMapRequests(t)
	it.counter.Reset()
	it.mustApply(cfg)
	noop := float64(it.counter.Reads()+it.counter.Writes()) / 100
	afterNoop := configMapRequests(t)
	t.Logf("requests per object: create %.2f, no-op re-apply %.2f (writes %d)", create, noop, it.counter.Writes())
	t.Logf("apiserver_request_total{resource=configmaps} per object: create %.2f, no-op %.2f", (afterCreate-before)/100, (afterNoop-afterCreate)/100)
	if create > 1.05 || noop > 1.05 || it.counter.Writes() != 0 {
		t.Fatalf("requests per object: create %.2f, no-op %.2f with %d writes; want ≤1, ≤1 and 0", create, noop, it.counter.Writes())
	}
}

// BenchmarkApply100ConfigMaps applies 100 ConfigMaps in one item (create),
// then measures a no-op re-apply; deletion is not timed.
func BenchmarkApply100ConfigMaps(b *testing.B) {
	ns := localcluster.Namespace(b)
	counter := &deployertest.RequestCounter{}
	d := manifest.New(target.NewPool(target.WithWrapTransport(counter.Wrap)))
	cfg := deployertest.MustJSON(b, map[string]any{"apiVersion": "manifest.deployer.landscaper.gardener.cloud/v1alpha2", "kind": "ProviderConfiguration", "manifests": manageAll(configMaps100(ns))})
	tg := deployertest.KubernetesTarget(b, localcluster.Kubeconfig(b))
	var createReq, noopReq int64
	var noop time.Duration
	for b.Loop() {
		item := deployer.Item{ID: "bench", Name: "bench", Type: manifest.Type, Target: tg, Config: cfg}
		counter.Reset()
		res, err := d.Apply(context.Background(), item)
		if err != nil {
			b.Fatal(err)
		}
		createReq += counter.Reads() + counter.Writes()
		b.StopTimer()
		item.ProviderStatus = res.ProviderStatus
		counter.Reset()
		started := time.Now()
		if _, err := d.Apply(context.Background(), item); err != nil {
			b.Fatal(err)
		}
		noop += time.Since(started)
		noopReq += counter.Reads() + counter.Writes()
		if err := d.Delete(context.Background(), item, deployer.DeleteOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(createReq)/float64(b.N)/100, "create-req/object")
	b.ReportMetric(float64(noopReq)/float64(b.N)/100, "noop-req/object")
	b.ReportMetric(float64(noop.Milliseconds())/float64(b.N), "noop-ms/op")
}

// BenchmarkKubectlApplyServerSide100ConfigMaps is the baseline: `kubectl
// apply --server-side` of the same 100 ConfigMaps; deletion is not timed.
func BenchmarkKubectlApplyServerSide100ConfigMaps(b *testing.B) {
	ns := localcluster.Namespace(b)
	var docs []string
	for _, o := range configMaps100(ns) {
		y, err := yaml.Marshal(o)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, string(y))
	}
	file := filepath.Join(b.TempDir(), "configmaps.yaml")
	if err := os.WriteFile(file, []byte(strings.Join(docs, "\n---\n")), 0o600); err != nil {
		b.Fatal(err)
	}
	kubeconfig := localcluster.KubeconfigPath(b)
	for b.Loop() {
		if out, err := exec.Command("kubectl", "--kubeconfig", kubeconfig, "apply", "--server-side", "-f", file).CombinedOutput(); err != nil {
			b.Fatalf("kubectl apply: %v: %s", err, out)
		}
		b.StopTimer()
		if out, err := exec.Command("kubectl", "--kubeconfig", kubeconfig, "delete", "--wait", "-f", file).CombinedOutput(); err != nil {
			b.Fatalf("kubectl delete: %v: %s", err, out)
		}
		b.StartTimer()
	}
}
