package inventory

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Recorder keeps the inventory of one job of one installation instance.
// Wrap its deployers into the job's registry; call Close when the job ended.
// A drift check wraps its deployers too, for the ApplySet ID of each
// item's cluster; it calls neither Apply nor Delete, so nothing is read or
// written.
type Recorder struct {
	pool     *target.Pool
	root     string
	instance string

	// adopt: the job starts from a lost state (AdoptRecorded).
	adopt bool

	// homes are the clusters of Homed deployers (Wrap): read after a lost
	// state besides the target imports' (Rebuild).
	homes []api.Target

	// key signs what the job writes; verify refuses unsigned records
	// (SignWith).
	key    []byte
	verify bool
	// holds says which configurations hold a secret: those are sealed
	// (SealWhen, seal.go).
	holds func(json.RawMessage) bool

	mu       sync.Mutex
	clusters map[*target.Clients]*parent
	targets  map[*target.Clients]api.Target // the target each cluster was first reached through
}

// NewRecorder returns the recorder of a job of root installation root,
// run by resource instance instance, in the clusters of pool.
func NewRecorder(pool *target.Pool, root, instance string) *Recorder {
	return &Recorder{pool: pool, root: root, instance: instance,
		clusters: map[*target.Clients]*parent{}, targets: map[*target.Clients]api.Target{}}
}

// Wrap returns reg with every deployer call recorded: Apply waits until
// the item's cluster holds the parent, then records the provider status
// and the objects the deployer returned (recordItem); a successful Delete
// removes the item.
func (r *Recorder) Wrap(reg *deployer.Registry) *deployer.Registry {
	r.homes = reg.Homes()
	return reg.Wrap(func(_ string, d deployer.Deployer) deployer.Deployer {
		return recorded{Deployer: d, r: r}
	})
}

// parentFor returns the parent of t's cluster, loaded (and, when create
// is set, written) once per job; nil for items without a target.
func (r *Recorder) parentFor(ctx context.Context, t *api.Target, create bool) (*parent, error) {
	p, err := r.parentOf(t)
	if err != nil || p == nil {
		return nil, err
	}
	return p, p.open(ctx, create)
}

// parentOf returns the parent of t's cluster as it is known so far,
// without reading it; nil for items without a target.
func (r *Recorder) parentOf(t *api.Target) (*parent, error) {
	if t == nil || r.pool == nil {
		return nil, nil
	}
	clients, err := r.pool.Clients(t)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	p, ok := r.clusters[clients]
	if !ok {
		p = newParent(clients, r.root, r.instance)
		p.key, p.verify = r.key, r.verify
		if p.seal, err = newSealing(r.key, r.holds); err != nil {
			return nil, err
		}
		r.clusters[clients] = p
		r.targets[clients] = *t
	}
	return p, nil
}

// Close waits for the writes in flight and writes what is still pending.
// When the job deleted every item of a cluster (destroy), that cluster's
// parent is deleted, last.
func (r *Recorder) Close(ctx context.Context) error {
	r.mu.Lock()
	parents := make([]*parent, 0, len(r.clusters))
	for _, p := range r.clusters {
		parents = append(parents, p)
	}
	r.mu.Unlock()
	var errs []error
	for _, p := range parents {
		if err := p.close(ctx); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		// Wrapped, not flattened: package failure classifies what the
		// API server said (a size limit is terminal).
		return fmt.Errorf("installation inventory: %w", errors.Join(errs...))
	}
	return nil
}

// recorded is a deployer whose calls the recorder follows; Validate is
// the embedded deployer's own.
type recorded struct {
	deployer.Deployer
	r *Recorder
}

// clusterOf returns the target of the cluster whose parent records item:
// its deployer's home (deployer.Homed), else its target cluster.
func (d recorded) clusterOf(item deployer.Item) (t *api.Target, homed bool, err error) {
	if h, ok := d.Deployer.(deployer.Homed); ok {
		home, err := h.Home(item)
		if err != nil || home != nil {
			return home, home != nil, err
		}
	}
	return item.Target, false, nil
}

func (d recorded) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	item.Instance = d.r.instance
	cluster, homed, err := d.clusterOf(item)
	if err != nil {
		return deployer.Result{ProviderStatus: item.ProviderStatus}, err
	}
	p, err := d.r.parentFor(ctx, cluster, true)
	if err != nil {
		// Nothing is deployed before the inventory records it.
		return deployer.Result{ProviderStatus: item.ProviderStatus}, fmt.Errorf("deploy item %q: writing the installation inventory: %w", item.Name, err)
	}
	if p != nil {
		item.PartOf = p.id
		d.r.startFromRecord(p, &item)
	}
	res, err := d.Deployer.Apply(ctx, item)
	if p != nil && len(res.ProviderStatus) > 0 {
		rec := recordItem(item, res)
		rec.Homed = homed
		p.put(rec)
	}
	return res, err
}

// Delete tells the deployer the installation's ApplySet (its members may
// be read with one list, deployer.SharedReads) and removes the item from
// the inventory once it is gone.
func (d recorded) Delete(ctx context.Context, item deployer.Item, opts deployer.DeleteOptions) error {
	item.Instance = d.r.instance
	cluster, _, err := d.clusterOf(item)
	if err != nil {
		return err
	}
	if p, err := d.r.parentOf(cluster); err == nil && p != nil {
		item.PartOf = p.id
	}
	if err := d.Deployer.Delete(ctx, item, opts); err != nil {
		return err
	}
	// The item is gone; an unreachable inventory must not fail that.
	if p, err := d.r.parentFor(ctx, cluster, false); err == nil && p != nil {
		p.remove(item.ID)
	}
	return nil
}

// Drift tells the deployer the installation's ApplySet, as Delete does;
// it reads and writes no inventory.
func (d recorded) Drift(ctx context.Context, item deployer.Item) (deployer.DriftReport, error) {
	if cluster, _, err := d.clusterOf(item); err != nil {
		return deployer.DriftReport{}, err
	} else if p, err := d.r.parentOf(cluster); err == nil && p != nil {
		item.PartOf = p.id
	}
	return d.Deployer.Drift(ctx, item)
}
