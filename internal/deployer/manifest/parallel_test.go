package manifest_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestApply_ParallelItemsShareOnePool: eight items of 25 objects each,
// applied at once through one pool, finish far faster than client-go's
// default 5 requests per second would allow (200 requests = 40 s).
func TestApply_ParallelItemsShareOnePool(t *testing.T) {
	ns := localcluster.Namespace(t)
	d := manifest.New(target.NewPool())
	tg := deployertest.KubernetesTarget(t, localcluster.Kubeconfig(t))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	started := time.Now()
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range 8 {
		var objs []map[string]any
		for j := range 25 {
			objs = append(objs, entry("manage", cm(ns, fmt.Sprintf("p%d-%02d", i, j), map[string]any{"v": "1"})))
		}
		item := deployer.Item{ID: fmt.Sprintf("parallel/%d", i), Name: fmt.Sprint(i), Type: manifest.Type, Target: tg, Config: config(t, objs, nil)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = d.Apply(ctx, item)
		}()
	}
	wg.Wait()
	took := time.Since(started)
	for i, err := range errs {
		if err != nil {
			t.Fatalf("item %d: %v", i, err)
		}
	}
	t.Logf("8 parallel items, 200 objects: %s", took.Round(time.Millisecond))
	if took > 10*time.Second {
		t.Fatalf("8 parallel items took %s: throttled", took)
	}
}
