// Package deployertest is the conformance suite every Kubernetes deployer
// passes against the local cluster: create (declaring its objects in
// deployer.Result.Objects), update, no-op update (no
// writes), drift repair, delete, delete without uninstall, timeout,
// interrupt, unreachable cluster (transient), invalid config (terminal)
// and a CRD with its custom resource in one item.
package deployertest

import (
	"context"
	"encoding/json"
	"io/fs"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// Harness adapts a deployer to the suite.
type Harness struct {
	// Type is the deploy item type.
	Type string
	// New returns the deployer under test, using pool.
	New func(pool *target.Pool) deployer.Deployer
	// Config returns a configuration that deploys exactly objects into
	// namespace (objects carry their namespace already). CRDs among them
	// must be deployed before the other objects.
	Config func(t *testing.T, namespace string, objects []map[string]any) json.RawMessage
	// Files are the blueprint files given to the item (may be nil).
	Files fs.FS
	// Invalid is a configuration the deployer must reject as terminal.
	Invalid json.RawMessage
	// KeepsCRDs is true when Delete leaves CRDs in place (Helm's rule for
	// the crds/ folder).
	KeepsCRDs bool
}

// Run runs the whole suite. The test binary must call localcluster.Main.
func Run(t *testing.T, h Harness) {
	t.Run("Lifecycle", func(t *testing.T) { testLifecycle(t, h) })
	t.Run("DeleteWithoutUninstall", func(t *testing.T) { testDeleteWithoutUninstall(t, h) })
	t.Run("Timeout", func(t *testing.T) { testTimeout(t, h) })
	t.Run("Interrupt", func(t *testing.T) { testInterrupt(t, h) })
	t.Run("UnreachableCluster", func(t *testing.T) { testUnreachable(t, h) })
	t.Run("InvalidConfig", func(t *testing.T) { testInvalidConfig(t, h) })
	t.Run("CRDAndCustomResource", func(t *testing.T) { testCRDAndCR(t, h) })
}

// fixture is one deployer under test with a counting pool and a namespace.
type fixture struct {
	h         Harness
	d         deployer.Deployer
	counter   *RequestCounter
	namespace string
	target    *api.Target
	cluster   *cluster
	status    json.RawMessage
}

func newFixture(t *testing.T, h Harness) *fixture {
	t.Helper()
	counter := &RequestCounter{}
	pool := target.NewPool(target.WithWrapTransport(counter.Wrap))
	return &fixture{
		h:         h,
		d:         h.New(pool),
		counter:   counter,
		namespace: localcluster.Namespace(t),
		target:    KubernetesTarget(t, localcluster.Kubeconfig(t)),
		cluster:   newCluster(t),
	}
}

// KubernetesTarget returns a kubernetes-cluster target for kubeconfig.
func KubernetesTarget(t testing.TB, kubeconfig string) *api.Target {
	t.Helper()
	config, err := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: kubeconfig})
	if err != nil {
		t.Fatal(err)
	}
	tg := api.NewTarget("cluster", "", api.KubernetesClusterTargetType, config)
	return &tg
}

func (f *fixture) item(t *testing.T, config json.RawMessage, timeout time.Duration) deployer.Item {
	return deployer.Item{
		ID: "conformance/" + t.Name(), Name: "conformance", Type: f.h.Type, Target: f.target,
		Config: config, Timeouts: deployer.Timeouts{Progressing: timeout}, ProviderStatus: f.status, Files: f.h.Files,
	}
}

// apply applies config and remembers the returned status, as the engine does.
func (f *fixture) apply(t *testing.T, ctx context.Context, config json.RawMessage) (deployer.Result, error) {
	t.Helper()
	res, err := f.d.Apply(ctx, f.item(t, config, time.Minute))
	if len(res.ProviderStatus) == 0 {
		t.Fatalf("Apply returned no provider status (err: %v)", err)
	}
	f.status = res.ProviderStatus
	return res, err
}

func (f *fixture) mustApply(t *testing.T, config json.RawMessage) deployer.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	res, err := f.apply(t, ctx, config)
	if err != nil {
		t.Fatalf("Apply: %v", err)
	}
	return res
}

func (f *fixture) mustDelete(t *testing.T, opts deployer.DeleteOptions) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := f.d.Delete(ctx, f.item(t, nil, time.Minute), opts); err != nil {
		t.Fatalf("Delete: %v", err)
	}
}

// cleanup deletes whatever the fixture's item still records.
func (f *fixture) cleanup(t *testing.T, config json.RawMessage) {
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := f.d.Delete(ctx, f.item(t, config, time.Minute), deployer.DeleteOptions{}); err != nil {
			t.Errorf("cleanup Delete: %v", err)
		}
	})
}

func configMap(namespace, name, value string) map[string]any {
	return map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": name, "namespace": namespace},
		"data":     map[string]any{"value": value},
	}
}

// neverReadyDeployment selects a node that does not exist, so its pod
// stays Pending and the Deployment never becomes available.
func neverReadyDeployment(namespace string) map[string]any {
	labels := map[string]any{"app": "never-ready"}
	return map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "never-ready", "namespace": namespace},
		"spec": map[string]any{
			"replicas": 1,
			"selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{
				"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{
					"nodeSelector": map[string]any{"no-such-node": "true"},
					"containers":   []any{map[string]any{"name": "app", "image": "example.invalid/app:1"}},
				},
			},
		},
	}
}

// wantObject fails unless res declares ref among the objects it manages
// (deployer.Result.Objects), which the installation inventory records.
func wantObject(t *testing.T, res deployer.Result, ref deployer.ObjectRef) {
	t.Helper()
	for _, o := range res.Objects {
		if o == ref {
			return
		}
	}
	t.Fatalf("Result.Objects %v does not declare %v", res.Objects, ref)
}

func assertTerminal(t *testing.T, err error, want bool, mustMention string) {
	t.Helper()
	if err == nil {
		t.Fatal("expected an error")
	}
	if failure.IsTerminal(err) != want {
		t.Fatalf("error class %v, want terminal=%v: %v", failure.KindOf(err), want, err)
	}
	if mustMention != "" && !strings.Contains(err.Error(), mustMention) {
		t.Fatalf("error does not mention %q: %v", mustMention, err)
	}
}
