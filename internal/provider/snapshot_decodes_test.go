package provider

import (
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/instance"
)

// A no-op plan (upgrade, refresh, validate, plan) decodes an
// installation's engine snapshot from private state once: the refresh
// decodes it for its pins, its drift check and the reconcile outcome, and
// the plan takes the copy the drift check left. Each extra decode is
// ~0.5 ms of CPU per 100 items, the largest cost of a refresh after the
// drift check's own reads; with 100 installations of 100 items the
// refresh and plan decoded each snapshot three times.
func TestNoOpPlan_DecodesSnapshotOnce(t *testing.T) {
	s := newBenchServer(t, 20)
	r := s.prepareNoOp(t, s.create(t))
	before := instance.Decodes()
	s.expectEmpty(t, r, s.noOpPlan(t, r))
	if got := instance.Decodes() - before; got != 1 {
		t.Errorf("a no-op plan of one installation decoded its snapshot %d times, want 1", got)
	}
}
