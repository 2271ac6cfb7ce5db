package manifest_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// scaleItems is the scale workload's size: one ConfigMap per deploy item.
const scaleItems = 1000

// BenchmarkScaleParallelism answers how much of a 1,000-item apply and
// destroy is the API server and how much this client, at each parallelism:
// "raw" sends exactly the requests the work needs (one server-side apply
// PATCH per ConfigMap, then one DELETE) from P workers through the pool's
// client; "deployer" makes the same 1,000 one-ConfigMap deploy item calls
// (Apply, then Delete with the job's shared reads, as a destroy does) from
// P workers. Reported per operation: apply-s and delete-s (wall seconds
// for all 1,000) and the requests sent. Run one size at a time, e.g.
// -bench 'ScaleParallelism/p=20' -benchtime 1x.
func BenchmarkScaleParallelism(b *testing.B) {
	for _, p := range []int{5, 10, 20, 40, 80} {
		b.Run(fmt.Sprintf("p=%d/raw", p), func(b *testing.B) { benchScale(b, p, rawScale) })
		b.Run(fmt.Sprintf("p=%d/deployer", p), func(b *testing.B) { benchScale(b, p, deployerScale) })
	}
}

// scaleRun applies (or, with del, deletes) item i of the workload.
type scaleRun func(b *testing.B, env *scaleEnv) (apply, del func(ctx context.Context, i int) error)

type scaleEnv struct {
	ns      string
	pool    *target.Pool
	target  *api.Target
	counter *deployertest.RequestCounter
}

func benchScale(b *testing.B, parallelism int, run scaleRun) {
	env := &scaleEnv{ns: localcluster.Namespace(b), counter: &deployertest.RequestCounter{}}
	// No client-side limit, as the provider's default: the workers bound
	// the requests in flight.
	env.pool = target.NewPool(target.WithWrapTransport(env.counter.Wrap), target.WithRateLimit(0, 0))
	env.target = deployertest.KubernetesTarget(b, localcluster.Kubeconfig(b))
	apply, del := run(b, env)
	clients, err := env.pool.Clients(env.target)
	if err != nil {
		b.Fatal(err)
	}
	var applied, deleted time.Duration
	var requests int64
	var applyCPU, deleteCPU float64
	for b.Loop() {
		cpu0 := apiServerCPU(b, clients)
		env.counter.Reset()
		started := time.Now()
		parallel(b, parallelism, apply)
		applied += time.Since(started)
		requests += env.counter.Reads() + env.counter.Writes()
		cpu1 := apiServerCPU(b, clients)
		env.counter.Reset()
		started = time.Now()
		parallel(b, parallelism, del)
		deleted += time.Since(started)
		requests += env.counter.Reads() + env.counter.Writes()
		applyCPU, deleteCPU = applyCPU+cpu1-cpu0, deleteCPU+apiServerCPU(b, clients)-cpu1
	}
	n := float64(b.N)
	b.ReportMetric(applied.Seconds()/n, "apply-s")
	b.ReportMetric(deleted.Seconds()/n, "delete-s")
	b.ReportMetric(applyCPU/n, "apiserver-apply-cpu-s")
	b.ReportMetric(deleteCPU/n, "apiserver-delete-cpu-s")
	b.ReportMetric(float64(requests)/n, "requests")
}

// apiServerCPU is the API server's own process_cpu_seconds_total (its
// /metrics; etcd is not included).
func apiServerCPU(b *testing.B, c *target.Clients) float64 {
	raw, err := c.Discovery.RESTClient().Get().AbsPath("/metrics").DoRaw(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	for line := range strings.SplitSeq(string(raw), "\n") {
		if v, ok := strings.CutPrefix(line, "process_cpu_seconds_total "); ok {
			f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				b.Fatal(err)
			}
			return f
		}
	}
	b.Fatal("the API server's /metrics has no process_cpu_seconds_total")
	return 0
}

// parallel runs fn for every item from p workers and fails b on the first error.
func parallel(b *testing.B, p int, fn func(ctx context.Context, i int) error) {
	next := make(chan int)
	errs := make(chan error, p)
	var wg sync.WaitGroup
	for range p {
		wg.Go(func() {
			for i := range next {
				if err := fn(context.Background(), i); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	for i := range scaleItems {
		next <- i
	}
	close(next)
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		b.Fatal(err)
	}
}

func scaleConfigMap(ns string, i int) map[string]any {
	return cm(ns, fmt.Sprintf("scale-%04d", i), map[string]any{"index": fmt.Sprint(i)})
}

func rawScale(b *testing.B, env *scaleEnv) (apply, del func(ctx context.Context, i int) error) {
	clients, err := env.pool.Clients(env.target)
	if err != nil {
		b.Fatal(err)
	}
	cms := clients.Dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace(env.ns)
	force := true
	apply = func(ctx context.Context, i int) error {
		body, err := unstructuredOf(scaleConfigMap(env.ns, i)).MarshalJSON()
		if err != nil {
			return err
		}
		_, err = cms.Patch(ctx, fmt.Sprintf("scale-%04d", i), types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "bench", Force: &force})
		return err
	}
	del = func(ctx context.Context, i int) error {
		return cms.Delete(ctx, fmt.Sprintf("scale-%04d", i), metav1.DeleteOptions{})
	}
	return apply, del
}

func deployerScale(b *testing.B, env *scaleEnv) (apply, del func(ctx context.Context, i int) error) {
	d := manifest.New(env.pool)
	statuses := make([][]byte, scaleItems)
	configs := make([][]byte, scaleItems)
	for i := range configs {
		configs[i] = deployertest.MustJSON(b, map[string]any{"apiVersion": "manifest.deployer.landscaper.gardener.cloud/v1alpha2", "kind": "ProviderConfiguration",
			"manifests": manageAll([]map[string]any{scaleConfigMap(env.ns, i)})})
	}
	item := func(i int) deployer.Item {
		id := fmt.Sprintf("scale/item-%04d", i)
		return deployer.Item{
			ID: id, Name: id, Type: manifest.Type, Target: env.target, PartOf: "applyset-scale-bench",
			Config: configs[i], ProviderStatus: statuses[i],
		}
	}
	var shared *deployer.SharedReads
	var sharedOnce sync.Mutex
	apply = func(ctx context.Context, i int) error {
		res, err := d.Apply(ctx, item(i))
		statuses[i] = res.ProviderStatus
		sharedOnce.Lock()
		shared = nil // the next delete pass starts with a fresh job's reads
		sharedOnce.Unlock()
		return err
	}
	del = func(ctx context.Context, i int) error {
		sharedOnce.Lock()
		if shared == nil {
			shared = deployer.NewSharedReads()
		}
		reads := shared
		sharedOnce.Unlock()
		it := item(i)
		it.SharedReads = reads
		err := d.Delete(ctx, it, deployer.DeleteOptions{})
		statuses[i] = nil
		return err
	}
	return apply, del
}
