package shared

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

func TestTuningOf(t *testing.T) {
	null := types.Int64Null()
	if got := TuningOf(null, null, null); got.parallelism != defaultParallelism || got.qps > 0 {
		t.Errorf("defaults = %+v, want parallelism %d and no rate limit", got, defaultParallelism)
	}
	got := TuningOf(types.Int64Value(4), types.Int64Value(50), null)
	if got.parallelism != 4 || got.qps != 50 || got.burst != 100 {
		t.Errorf("parallelism 4, qps 50 = %+v, want burst 100 (twice qps)", got)
	}
	if got := TuningOf(null, types.Int64Value(50), types.Int64Value(7)); got.burst != 7 {
		t.Errorf("cluster_burst 7 = %+v", got)
	}
}
