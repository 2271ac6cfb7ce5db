package instance

import (
	"context"
	"sync"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

// rebuiltSpy is the mock deployer, noting for each call whether the item
// came as rebuilt from the inventory.
type rebuiltSpy struct {
	deployer.Deployer
	mu   sync.Mutex
	seen map[string]bool // "<op> <item ID>" → Item.Rebuilt
}

func (s *rebuiltSpy) note(op string, item deployer.Item) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen[op+" "+item.ID] = item.Rebuilt
}

func (s *rebuiltSpy) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	s.note("apply", item)
	return s.Deployer.Apply(ctx, item)
}

func (s *rebuiltSpy) Delete(ctx context.Context, item deployer.Item, opts deployer.DeleteOptions) error {
	s.note("delete", item)
	return s.Deployer.Delete(ctx, item, opts)
}

// An item whose status the snapshot says was rebuilt from the inventory
// reaches its deployer as Rebuilt, on Apply and Delete alike, until an
// Apply of it succeeded: from then on the status is the deployer's own.
func TestRunner_RebuiltReachesTheDeployerUntilApplied(t *testing.T) {
	ctx := context.Background()
	spy := &rebuiltSpy{Deployer: mock.New(), seen: map[string]bool{}}
	reg := deployer.NewRegistry()
	reg.Register(mock.Type, spy)
	r := Runner{Engine: &engine.Engine{Deployers: reg}}
	first, err := r.Apply(ctx, twoItems(t, "Succeeded", false), nil, "i")
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range first.Snapshot.Installations() {
		for _, it := range in.Execution.DeployItems {
			it.Rebuilt = true
		}
	}
	rebuilt := first.Snapshot.Clone()
	again, err := r.Apply(ctx, twoItems(t, "Succeeded", false), first.Snapshot, "i")
	if err != nil {
		t.Fatal(err)
	}
	if !spy.seen["apply app/ok"] || !spy.seen["apply app/bad"] {
		t.Fatalf("the applies did not say rebuilt: %v", spy.seen)
	}
	for _, in := range again.Snapshot.Installations() {
		for _, it := range in.Execution.DeployItems {
			if it.Rebuilt {
				t.Errorf("%s is still Rebuilt after a successful apply", it.ID)
			}
		}
	}
	if _, err := r.Delete(ctx, rebuilt, "i", engine.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if !spy.seen["delete app/ok"] || !spy.seen["delete app/bad"] {
		t.Fatalf("the deletes did not say rebuilt: %v", spy.seen)
	}
}
