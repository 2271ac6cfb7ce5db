package inventory

import (
	"context"
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Besides the deploy items, a parent keeps what its caller asks it to
// (Recorder.Keep) — the provider keeps what an import needs to fill the
// state without the configuration — and Find reads it back. The inventory
// does not look into it.

// Keep records kept in every parent this job opened and did not leave to a
// newer instance; Close writes it (a parent left without items is deleted
// as before). Call it after the job, before Close.
func (r *Recorder) Keep(kept json.RawMessage) {
	r.mu.Lock()
	parents := make([]*parent, 0, len(r.clusters))
	for _, p := range r.clusters {
		parents = append(parents, p)
	}
	r.mu.Unlock()
	for _, p := range parents {
		p.openOnce.Lock()
		opened := p.opened
		p.openOnce.Unlock()
		if !opened {
			continue
		}
		p.mu.Lock()
		if !p.foreign {
			p.kept, p.keep = kept, true
		}
		p.mu.Unlock()
	}
}

// Found is what the parents of an installation hold in the clusters
// searched.
type Found struct {
	// Snapshot is rebuilt from the recorded items as Rebuild makes it:
	// each item Failed (reason RebuiltFromInventory) and targeting the
	// cluster it was found in; nil when no cluster records anything.
	Snapshot *snapshot.Snapshot
	// Kept is what each parent found keeps (Recorder.Keep), one entry
	// per parent that keeps anything.
	Kept []json.RawMessage
}

// Find reads the parents of root installation root in the clusters of
// targets, as Rebuild does, with what they keep.
func Find(ctx context.Context, pool *target.Pool, root string, targets []api.Target) (Found, error) {
	var kept []json.RawMessage
	snap, err := loadThrough(pool, root, targets, func(_ *api.Target, c *target.Clients) ([]RecordedItem, error) {
		f, err := fetch(ctx, c.Dynamic.Resource(secrets).Namespace(c.Namespace), c.Namespace, ParentName(root), root)
		if f.ignored != "" {
			return nil, err // not this installation's: an import takes nothing from it
		}
		if len(f.rec.Kept) > 0 {
			kept = append(kept, f.rec.Kept)
		}
		return f.rec.Items, err
	})
	return Found{Snapshot: snap, Kept: kept}, err
}
