package instance

import (
	"context"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

// Refresh resolves the sources of the recorded items (Resolve) and the
// plan previews them by the host their last apply fetched from
// (PreviewRequest.Applied). Items rebuilt from an inventory — everything
// an import fills — are claims: neither is taken from them, so a planted
// record cannot make refresh or plan contact a host it names (issue 32,
// suspicions e and f).
func TestRunner_RebuiltItemsNeitherResolvedNorTrustedForHosts(t *testing.T) {
	ctx := context.Background()
	f := &fetching{Deployer: mock.New(), applied: map[string]deployer.Pins{}}
	reg := deployer.NewRegistry()
	reg.Register(mock.Type, f)
	r := Runner{Engine: &engine.Engine{Deployers: reg}}
	job, err := r.Apply(ctx, twoItems(t, "Succeeded", false), nil, deployer.NewInstance())
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Resolve(ctx, job.Snapshot); len(got) != 2 {
		t.Fatalf("applied items resolved to %v, want both", got)
	}
	for _, req := range engine.RecordedPreviewItems(job.Snapshot, nil, nil) {
		if len(req.Applied) == 0 {
			t.Fatalf("%s: an applied item has no Applied configuration", req.Item.ID)
		}
	}
	for _, it := range job.Snapshot.DeployItems() {
		it.Rebuilt = true // as inventory.Claim marks what an import fills
	}
	if got := r.Resolve(ctx, job.Snapshot); len(got) != 0 {
		t.Errorf("rebuilt items resolved to %v: a planted record chooses what refresh fetches", got)
	}
	for _, req := range engine.RecordedPreviewItems(job.Snapshot, nil, nil) {
		if len(req.Applied) != 0 || !req.Item.Rebuilt {
			t.Errorf("%s: a rebuilt item's recorded configuration stands for its last apply (Applied %s, Rebuilt %v)",
				req.Item.ID, req.Applied, req.Item.Rebuilt)
		}
	}
}
