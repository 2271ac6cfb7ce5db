package inventory

import (
	"context"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Owner is the resource instance that owns root installation root's
// inventory in the clusters of targets: the newest instance any of its
// parents names (instance IDs are UUIDv7, so they sort by age). A job
// run outside the resource (a reconcile) runs as that instance, so that
// what it deploys stays the resource's: a newer instance would count as
// one that adopted the objects (deployer.AdoptedBy), and a later destroy
// of the resource would leave them. "" when no cluster records root.
// Secrets that are not the installation's parents (fetch) are ignored.
func Owner(ctx context.Context, pool *target.Pool, root string, targets []api.Target) (string, error) {
	owner := ""
	seen := map[*target.Clients]bool{}
	for i := range targets {
		clients, err := pool.Clients(&targets[i])
		if err != nil || seen[clients] {
			continue // not a cluster this provider can reach, as for Rebuild
		}
		seen[clients] = true
		f, err := fetch(ctx, clients.Dynamic.Resource(secrets).Namespace(clients.Namespace), clients.Namespace, ParentName(root), root)
		if err != nil {
			return "", err
		}
		if f.exists && f.ignored == "" && f.instance > owner {
			owner = f.instance
		}
	}
	return owner, nil
}
