package deployer

import "github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"

// Homed is a Deployer that keeps what it writes for an item in a cluster
// of its own — its home — instead of the item's target cluster: the
// external deployer's DeployItem, Target and Context objects live where
// the deployers that work on them watch. The target cluster may not be
// reachable from here at all (a fenced environment). For such an item
// the installation's inventory is kept in the home, Result.Objects name
// objects there, and Item.PartOf is the home inventory's ApplySet.
type Homed interface {
	// Home returns the home of item: a kubernetes-cluster target whose
	// kubeconfig's namespace holds the item's objects and the inventory;
	// nil when this deployer keeps item's objects in its target cluster
	// (a router that hands only some items out). It contacts no cluster.
	Home(item Item) (*api.Target, error)
	// Homes are every home Home may return: where an inventory is read
	// after a lost state. Homes that cannot be built are left out (Home
	// reports why for each item).
	Homes() []api.Target
}

// Homes returns the homes of every Homed deployer of the registry, each
// cluster once (by identical target).
func (r *Registry) Homes() []api.Target {
	var out []api.Target
	seen := map[string]bool{}
	for _, t := range r.Types() {
		h, ok := r.byType[t].(Homed)
		if !ok {
			continue
		}
		for _, home := range h.Homes() {
			key := home.Spec.Type + "\x00" + string(home.Spec.Config)
			if !seen[key] {
				seen[key] = true
				out = append(out, home)
			}
		}
	}
	return out
}
