package instance

import (
	"context"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Pins of what deploy items fetch (deployer.Pins, by item ID): resolved
// at refresh from what the snapshot recorded (Resolve), checked by the
// plan's previews (PreviewOptions.Pins) and by the apply (Runner.Pins).

// Resolve returns what every item snap recorded would fetch now, by item
// ID, for the items whose deployer is a deployer.SourceResolver and
// fetches anything. An item whose source cannot be read now has no pin
// (its next preview fetches what is served then); a panicking deployer
// is passed over the same way.
func (r Runner) Resolve(ctx context.Context, snap *engine.Snapshot) map[string]deployer.Pins {
	if r.Engine == nil || r.Engine.Deployers == nil {
		return nil
	}
	out := map[string]deployer.Pins{}
	for _, req := range engine.RecordedPreviewItems(snap, nil, nil) {
		if req.Item.Rebuilt {
			// Rebuilt from an inventory (an import): its sources are what a
			// record claims, and resolving them would contact hosts a
			// planted record names; the next apply pins it from the
			// configuration.
			continue
		}
		d, err := r.Engine.Deployers.Lookup(req.Item.Type)
		if err != nil {
			continue
		}
		resolver, ok := d.(deployer.SourceResolver)
		if !ok {
			continue
		}
		if pins, err := resolveOne(ctx, resolver, req.Item); err == nil && len(pins) > 0 {
			out[req.Item.ID] = pins
		}
	}
	return out
}

func resolveOne(ctx context.Context, r deployer.SourceResolver, item deployer.Item) (pins deployer.Pins, err error) {
	defer func() {
		if p := recover(); p != nil {
			pins, err = nil, failure.FromPanic("the deployer's resolve", p)
		}
	}()
	return r.Resolve(ctx, item)
}

// pinned is a deployer whose Apply calls carry the item's pins.
type pinned struct {
	deployer.Deployer
	pins map[string]deployer.Pins
}

func (p pinned) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	item.Pins = p.pins[item.ID]
	return p.Deployer.Apply(ctx, item)
}

// withPins is reg with every Apply given the pins of its item.
func withPins(reg *deployer.Registry, pins map[string]deployer.Pins) *deployer.Registry {
	if len(pins) == 0 {
		return reg
	}
	return reg.Wrap(func(_ string, d deployer.Deployer) deployer.Deployer { return pinned{Deployer: d, pins: pins} })
}
