package execution

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// BenchmarkDAGEfficiency reports wall time divided by the critical-path
// lower bound (levels, each ceil(width/parallelism) item delays) for 100
// items of a fixed delay. Target: ≤ 1.1.
func BenchmarkDAGEfficiency(b *testing.B) {
	for _, delay := range []time.Duration{20 * time.Millisecond, 50 * time.Millisecond} {
		b.Run(delay.String(), func(b *testing.B) { benchmarkDAGEfficiency(b, delay) })
	}
}

func benchmarkDAGEfficiency(b *testing.B, delay time.Duration) {
	const (
		n           = 100
		parallelism = 10
	)
	cfg := map[string]any{"delay": delay.String()}
	shapes := map[string]struct {
		items  []api.DeployItemTemplate
		rounds int // lower bound in item delays
	}{}
	var chain, fan, diamond []api.DeployItemTemplate
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("i%03d", i)
		if i == 0 {
			chain = append(chain, item(name, cfg))
		} else {
			chain = append(chain, item(name, cfg, fmt.Sprintf("i%03d", i-1)))
		}
		fan = append(fan, item(name, cfg))
		switch i {
		case 0:
			diamond = append(diamond, item(name, cfg))
		case n - 1:
			var mids []string
			for k := 1; k < n-1; k++ {
				mids = append(mids, fmt.Sprintf("i%03d", k))
			}
			diamond = append(diamond, item(name, cfg, mids...))
		default:
			diamond = append(diamond, item(name, cfg, "i000"))
		}
	}
	ceil := func(a, b int) int { return (a + b - 1) / b }
	shapes["chain"] = struct {
		items  []api.DeployItemTemplate
		rounds int
	}{chain, n}
	shapes["fanout"] = struct {
		items  []api.DeployItemTemplate
		rounds int
	}{fan, ceil(n, parallelism)}
	shapes["diamond"] = struct {
		items  []api.DeployItemTemplate
		rounds int
	}{diamond, 1 + ceil(n-2, parallelism) + 1}
	for _, name := range []string{"chain", "fanout", "diamond"} {
		shape := shapes[name]
		b.Run(name, func(b *testing.B) {
			var total time.Duration
			for i := 0; i < b.N; i++ {
				env := newEnv()
				start := time.Now()
				if _, err := Run(env.job(context.Background(), parallelism), spec(shape.items...), nil); err != nil {
					b.Fatal(err)
				}
				total += time.Since(start)
			}
			bound := time.Duration(shape.rounds) * delay
			b.ReportMetric(float64(total)/float64(b.N)/float64(bound), "wall/bound")
		})
	}
}

// BenchmarkRun_Chain100ZeroDelay is the scheduling overhead of a strictly
// serial DAG: every item waits for its predecessor's completion.
func BenchmarkRun_Chain100ZeroDelay(b *testing.B) {
	var items []api.DeployItemTemplate
	for i := 0; i < 100; i++ {
		var deps []string
		if i > 0 {
			deps = []string{fmt.Sprintf("i%03d", i-1)}
		}
		items = append(items, item(fmt.Sprintf("i%03d", i), nil, deps...))
	}
	for i := 0; i < b.N; i++ {
		env := newEnv()
		if _, err := Run(env.job(context.Background(), 10), spec(items...), nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/100/1e6, "ms/item")
}

// BenchmarkRun_1000Items is the execution's own overhead per deploy item
// (zero-delay mock items, no templating).
func BenchmarkRun_1000Items(b *testing.B) {
	var items []api.DeployItemTemplate
	for i := 0; i < 1000; i++ {
		items = append(items, item(fmt.Sprintf("i%04d", i), nil))
	}
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		env := newEnv()
		if _, err := Run(env.job(context.Background(), 10), spec(items...), nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed())/float64(b.N)/1000/1e6, "ms/item")
}
