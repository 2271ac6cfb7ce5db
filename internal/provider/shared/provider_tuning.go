package shared

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Defaults of the tuning attributes, chosen by tools/bench (RESULTS.md):
// deploy items are mostly waiting on API round trips, so more run at once
// than there are cores; and no client-side rate limit, because the number
// of requests in flight is already bounded (parallelism × the deployers'
// per-item workers) and the API server's priority and fairness protects
// it better than a token bucket that throttled 1,000-item applies to
// 200 requests per second.
const (
	defaultParallelism = 20
	defaultClusterQPS  = 0 // no client-side limit
)

// Tuning is how hard the provider drives the clusters of its targets.
type Tuning struct {
	parallelism int
	qps         float32 // <= 0: no client-side limit
	burst       int
}

func TuningAttributes(attrs map[string]schema.Attribute) {
	atLeast := func(n int64) []validator.Int64 { return []validator.Int64{int64validator.AtLeast(n)} }
	attrs["parallelism"] = schema.Int64Attribute{Optional: true, Validators: atLeast(1),
		MarkdownDescription: "How many deploy items (across the whole installation tree of one `landscaper_installation`) are applied, deleted or checked for drift at once. " +
			"Default 20. Waiting for readiness or for deleted objects to go does not count."}
	attrs["cluster_qps"] = schema.Int64Attribute{Optional: true, Validators: atLeast(0),
		MarkdownDescription: "Client-side limit of requests per second to each target cluster (one limit per cluster, shared by all deploy items). " +
			"Default 0: no client-side limit; the requests in flight are bounded by `parallelism`, and the API server's priority and fairness protects it."}
	attrs["cluster_burst"] = schema.Int64Attribute{Optional: true, Validators: atLeast(1),
		MarkdownDescription: "Requests allowed at once above `cluster_qps` (only with `cluster_qps` > 0). Default twice `cluster_qps`."}
}

func TuningOf(parallelism, qps, burst types.Int64) Tuning {
	t := Tuning{parallelism: defaultParallelism, qps: defaultClusterQPS}
	if !parallelism.IsNull() && !parallelism.IsUnknown() {
		t.parallelism = int(parallelism.ValueInt64())
	}
	if !qps.IsNull() && !qps.IsUnknown() {
		t.qps = float32(qps.ValueInt64())
	}
	t.burst = int(2 * t.qps)
	if !burst.IsNull() && !burst.IsUnknown() {
		t.burst = int(burst.ValueInt64())
	}
	return t
}

// poolOptions are the target pool's rate limit for t.
func (t Tuning) poolOptions() []target.Option {
	if t.qps <= 0 {
		return []target.Option{target.WithRateLimit(-1, 0)}
	}
	return []target.Option{target.WithRateLimit(t.qps, max(t.burst, 1))}
}
