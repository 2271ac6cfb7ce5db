package inventory

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// rebuiltReason is the lastError reason of what Rebuild rebuilt.
const rebuiltReason = "RebuiltFromInventory"

// Rebuild reads the parents of root installation root in the clusters of
// targets (the configuration's target imports; targets that are not
// Kubernetes clusters, or the same cluster twice, are read once or not at
// all) and rebuilds the snapshot of what they record: every recorded
// deploy item under its installation, each resolving its target to the
// cluster it was found in, so the next job adopts what it renders again
// and deletes the rest. It returns nil when no cluster records anything.
// A parent that is not this installation's is ignored and reported in
// ignored; one that a newer instance than instance owns is left to it.
func Rebuild(ctx context.Context, pool *target.Pool, root, instance string, targets []api.Target) (snap *snapshot.Snapshot, ignored []string, err error) {
	snap, err = loadThrough(pool, root, targets, func(_ *api.Target, c *target.Clients) ([]RecordedItem, error) {
		name := ParentName(root)
		f, err := fetch(ctx, c.Dynamic.Resource(secrets).Namespace(c.Namespace), c.Namespace, name, root)
		if f.ignored != "" {
			ignored = append(ignored, ignoredMessage(c.Namespace, name, f.ignored))
			return nil, err
		}
		if deployer.AdoptedBy(f.instance, instance) {
			return nil, err // a newer instance holds it, and what it lists
		}
		return f.rec.Items, err
	})
	return snap, ignored, err
}

// Rebuild is inventory.Rebuild for the job r records, which starts from a lost
// state: the parents it reads are the job's own, so the job does not read
// them again before it deploys to their clusters. Those it ignores are
// reported by Ignored.
func (r *Recorder) Rebuild(ctx context.Context, targets []api.Target) (*snapshot.Snapshot, error) {
	targets = append(slices.Clip(targets), r.homes...)
	return loadThrough(r.pool, r.root, targets, func(t *api.Target, _ *target.Clients) ([]RecordedItem, error) {
		p, err := r.parentOf(t)
		if err != nil || p == nil {
			return nil, err
		}
		if err := p.open(ctx, false); err != nil {
			return nil, err
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		if p.foreign {
			return nil, nil
		}
		return p.recorded, nil
	})
}

// Ignored reports every Secret that had the name of one of the parents
// the job read but was not the installation's (fetch): nothing it listed
// was used.
func (r *Recorder) Ignored() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, p := range r.clusters {
		p.openOnce.Lock()
		if p.ignored != "" {
			out = append(out, ignoredMessage(p.namespace, p.name, p.ignored))
		}
		p.openOnce.Unlock()
	}
	sort.Strings(out)
	return out
}

// loadThrough rebuilds the snapshot of the items read returns for each
// distinct cluster of targets.
func loadThrough(pool *target.Pool, root string, targets []api.Target, read func(*api.Target, *target.Clients) ([]RecordedItem, error)) (*snapshot.Snapshot, error) {
	if pool == nil {
		return nil, nil
	}
	seen := map[*target.Clients]bool{}
	nodes := map[string]*snapshot.Installation{}
	for i := range targets {
		clients, err := pool.Clients(&targets[i])
		if err != nil || seen[clients] {
			continue // not a cluster this provider can reach: nothing recorded there
		}
		seen[clients] = true
		items, err := read(&targets[i], clients)
		if err != nil {
			return nil, err
		}
		importName := fmt.Sprintf("inventory-%d", i)
		for _, it := range items {
			addRebuilt(nodes, root, importName, targets[i], it)
		}
	}
	return rebuiltSnapshot(nodes, root), nil
}

// addRebuilt adds a recorded item, found in the cluster of t, to its
// installation in nodes, with t as its applied target — unless it was
// recorded in its deployer's home, which is not its target: it then has
// no applied target, and its deployer finds its objects by itself.
func addRebuilt(nodes map[string]*snapshot.Installation, root, importName string, t api.Target, it RecordedItem) {
	in := node(nodes, root, it.installationPath())
	if it.Homed {
		in.Execution.DeployItems = append(in.Execution.DeployItems, rebuiltItem(it, nil, nil))
		return
	}
	// The root imports it too: the engine hands a target that takes a
	// provider kubeconfig only to the root's imports (execution.CheckTarget),
	// and t is the searcher's own.
	for _, at := range []*snapshot.Installation{in, node(nodes, root, root)} {
		if at.Targets.Single == nil {
			at.Targets.Single = map[string]api.Target{}
		}
		at.Targets.Single[importName] = t
	}
	in.Execution.DeployItems = append(in.Execution.DeployItems, rebuiltItem(it, &api.TargetSelector{Import: importName}, &t))
}

// rebuiltItem is the snapshot item of a recorded one.
func rebuiltItem(it RecordedItem, sel *api.TargetSelector, applied *api.Target) *snapshot.DeployItem {
	out := &snapshot.DeployItem{
		ID: it.ID, Name: it.Name, Type: it.Type, Target: sel, AppliedTarget: applied, Phase: api.DeployItemPhaseFailed,
		LastError: &snapshot.Error{Operation: "Rebuild", Reason: rebuiltReason, Message: "rebuilt from the installation inventory after a lost state", Retryable: true},
	}
	Claim(out, it.ProviderStatus, it.Config)
	return out
}

// rebuiltSnapshot is the snapshot of the rebuilt nodes in a stable order;
// nil when there are none.
func rebuiltSnapshot(nodes map[string]*snapshot.Installation, root string) *snapshot.Snapshot {
	if len(nodes) == 0 {
		return nil
	}
	for _, in := range nodes {
		sort.Slice(in.Execution.DeployItems, func(i, j int) bool { return in.Execution.DeployItems[i].ID < in.Execution.DeployItems[j].ID })
		sort.Slice(in.Subinstallations, func(i, j int) bool { return in.Subinstallations[i].Path < in.Subinstallations[j].Path })
	}
	return &snapshot.Snapshot{Version: snapshot.Version, Root: nodes[root]}
}

// node returns the installation at path, creating it and its ancestors up
// to root.
func node(nodes map[string]*snapshot.Installation, root, path string) *snapshot.Installation {
	if in, ok := nodes[path]; ok {
		return in
	}
	name := path
	if path != root {
		name = path[strings.LastIndex(path, "/")+1:]
	}
	in := &snapshot.Installation{Path: path, Name: name, Phase: api.InstallationPhaseFailed,
		Execution: &snapshot.Execution{Phase: api.ExecutionPhaseFailed}}
	nodes[path] = in
	if path != root && strings.HasPrefix(path, root+"/") {
		parent := node(nodes, root, path[:strings.LastIndex(path, "/")])
		parent.Subinstallations = append(parent.Subinstallations, in)
	}
	return in
}
