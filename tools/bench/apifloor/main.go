// Command apifloor measures the API server's floor for a workload of many
// small objects: it server-side applies N ConfigMaps, the shape the scale
// workload's deploy items deploy, with W requests in flight and no
// client-side rate limit, then deletes them the same way, and prints the
// wall time of each phase. That is what any client must spend on the same
// objects against the same API server on the same machine, so
// tools/bench/run.sh floor10k reports this provider's apply and destroy
// of the same objects as a ratio to it (tools/bench/RESULTS.md).
//
//	apifloor -kubeconfig FILE -namespace NS [-objects 10000] [-workers 64] [-prefix p]
//
// It prints one line: "apply <seconds> delete <seconds>". Every object it
// created is deleted before it exits, also when the apply phase fails.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/util/flowcontrol"
)

func main() {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the cluster")
	namespace := flag.String("namespace", "", "existing namespace the ConfigMaps go to")
	objects := flag.Int("objects", 10000, "how many ConfigMaps")
	workers := flag.Int("workers", 64, "requests in flight")
	prefix := flag.String("prefix", "floor", "name prefix of the ConfigMaps")
	flag.Parse()
	if *kubeconfig == "" || *namespace == "" || *objects < 1 || *workers < 1 {
		flag.Usage()
		os.Exit(2)
	}
	applied, deleted, err := run(context.Background(), *kubeconfig, *namespace, *prefix, *objects, *workers)
	if err != nil {
		fmt.Fprintln(os.Stderr, "apifloor:", err)
		os.Exit(1)
	}
	fmt.Printf("apply %.3f delete %.3f\n", applied.Seconds(), deleted.Seconds())
}

func run(ctx context.Context, kubeconfig, namespace, prefix string, n, workers int) (applied, deleted time.Duration, err error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return 0, 0, err
	}
	// No client-side limit: the API server's own limits are the floor.
	cfg.RateLimiter = flowcontrol.NewFakeAlwaysRateLimiter()
	cfg.QPS, cfg.Burst = -1, 0
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return 0, 0, err
	}
	cms := cs.CoreV1().ConfigMaps(namespace)
	name := func(i int) string { return fmt.Sprintf("%s-%d", prefix, i) }
	force := true
	start := time.Now()
	applyErr := each(ctx, n, workers, func(ctx context.Context, i int) error {
		body, err := json.Marshal(map[string]any{
			"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": name(i), "namespace": namespace,
				"labels": map[string]string{"bench.landscaper/floor": prefix}},
			"data": map[string]string{"index": fmt.Sprint(i)},
		})
		if err != nil {
			return err
		}
		_, err = cms.Patch(ctx, name(i), types.ApplyPatchType, body, metav1.PatchOptions{FieldManager: "apifloor", Force: &force})
		return err
	})
	applied = time.Since(start)
	start = time.Now()
	deleteErr := each(ctx, n, workers, func(ctx context.Context, i int) error {
		err := cms.Delete(ctx, name(i), metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return err
		}
		return nil
	})
	deleted = time.Since(start)
	return applied, deleted, errors.Join(applyErr, deleteErr)
}

// each runs fn for 0..n-1 with workers goroutines; the first error stops
// handing out work and is returned.
func each(ctx context.Context, n, workers int, fn func(context.Context, int) error) error {
	var next atomic.Int64
	var once sync.Once
	var first error
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := fn(ctx, i); err != nil {
					once.Do(func() { first = err })
					next.Store(int64(n))
					return
				}
			}
		}()
	}
	wg.Wait()
	return first
}
