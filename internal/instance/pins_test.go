package instance

import (
	"context"
	"maps"
	"sync"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

// fetching is the mock deployer as one whose items fetch a source: it
// resolves every item to a digest of its own and records the pins its
// Apply calls get.
type fetching struct {
	deployer.Deployer
	mu      sync.Mutex
	applied map[string]deployer.Pins
}

func (f *fetching) Resolve(_ context.Context, item deployer.Item) (deployer.Pins, error) {
	return deployer.Pins{"source of " + item.Name: "digest-" + item.Name}, nil
}

func (f *fetching) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	f.mu.Lock()
	f.applied[item.ID] = item.Pins
	f.mu.Unlock()
	return f.Deployer.Apply(ctx, item)
}

// Resolve gives every recorded item's pins by ID; an Apply of a runner
// with Pins gets its item's pins, and one without gets none.
func TestRunner_Pins(t *testing.T) {
	ctx := context.Background()
	f := &fetching{Deployer: mock.New(), applied: map[string]deployer.Pins{}}
	reg := deployer.NewRegistry()
	reg.Register(mock.Type, f)
	r := Runner{Engine: &engine.Engine{Deployers: reg}}
	spec := twoItems(t, "Succeeded", false)
	job, err := r.Apply(ctx, spec, nil, deployer.NewInstance())
	if err != nil {
		t.Fatal(err)
	}
	for id, pins := range f.applied {
		if pins != nil {
			t.Errorf("%s applied with pins %v though the runner has none", id, pins)
		}
	}
	resolved := r.Resolve(ctx, job.Snapshot)
	if len(resolved) != 2 {
		t.Fatalf("resolved %v, want both items", resolved)
	}
	for id, pins := range resolved {
		if len(pins) != 1 {
			t.Errorf("%s resolved to %v", id, pins)
		}
	}
	r.Pins = map[string]deployer.Pins{}
	var pinnedID string
	for id, pins := range resolved {
		r.Pins[id], pinnedID = pins, id
		break
	}
	spec = twoItems(t, "Failed", false)                             // a change, so both items apply again
	_, _ = r.Apply(ctx, spec, job.Snapshot, deployer.NewInstance()) // one item fails, by design
	for id, pins := range f.applied {
		if want := r.Pins[id]; !maps.Equal(pins, want) {
			t.Errorf("%s applied with pins %v, want %v", id, pins, want)
		}
	}
	if f.applied[pinnedID] == nil {
		t.Errorf("the pinned item %s was applied without its pins", pinnedID)
	}
}
