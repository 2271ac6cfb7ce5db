package helm

import (
	"context"
	"encoding/json"
	"fmt"

	"helm.sh/helm/v3/pkg/release"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

var _ deployer.Adopter = (*Deployer)(nil)

// Adopt implements deployer.Adopter. A real release is read once: it must
// exist, be deployed and not belong to another deploy item of this
// provider. Its deployed revision is recorded, which is what lets this
// deployer upgrade and uninstall a release without its labels (ownerOf:
// installed by this item before releases were labeled); the next upgrade
// labels it. A rendered chart's objects are adopted like a manifest
// item's. Nothing is written.
func (d *Deployer) Adopt(ctx context.Context, item deployer.Item, from deployer.Landscaped) (json.RawMessage, error) {
	cfg, err := ParseConfig(item.Config)
	if err != nil {
		return nil, itemError(item, err)
	}
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return nil, itemError(item, err)
	}
	if !cfg.realRelease() {
		managed, err := manifest.NewSession(clients, item.ID).WithDefaultNamespace(cfg.Namespace).Adopt(ctx, from)
		if err != nil {
			return nil, itemError(item, err)
		}
		return ProviderStatus{ManagedResources: managed}.encode(), nil
	}
	r, err := newReleaser(clients, cfg.Name, cfg.Namespace, releaseOwner{})
	if err != nil {
		return nil, itemError(item, err)
	}
	last, err := r.last()
	switch {
	case err != nil:
		return nil, itemError(item, err)
	case last == nil:
		return nil, itemError(item, failure.Terminalf("AdoptMissing", "release %s/%s, which Landscaper's DeployItem %s installed, does not exist",
			cfg.Namespace, cfg.Name, from.DeployItem))
	case last.Info == nil || last.Info.Status != release.StatusDeployed:
		return nil, itemError(item, failure.Terminalf("AdoptNotDeployed", "release %s/%s of Landscaper's DeployItem %s is %s, not deployed; let Landscaper reconcile the installation before importing it",
			cfg.Namespace, cfg.Name, from.DeployItem, statusOf(last)))
	}
	if owner := last.Labels[deployer.OwnerLabel]; owner != "" && owner != deployer.OwnerValue(item.ID) {
		return nil, itemError(item, failure.Terminalf("ReleaseNotOwned", "release %s/%s belongs to another deploy item (%s=%s); it is not adopted",
			cfg.Namespace, cfg.Name, deployer.OwnerLabel, owner))
	}
	objs, err := releaseObjects(last)
	if err != nil {
		return nil, itemError(item, fmt.Errorf("release %s/%s: %w", cfg.Namespace, cfg.Name, err))
	}
	status := ProviderStatus{Release: &ReleaseRef{Name: cfg.Name, Namespace: cfg.Namespace, Revision: last.Version}, ManagedResources: managedOf(objs)}
	return status.encode(), nil
}

func statusOf(rel *release.Release) string {
	if rel.Info == nil {
		return "without status"
	}
	return rel.Info.Status.String()
}
