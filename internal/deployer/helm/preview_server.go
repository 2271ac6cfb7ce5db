package helm

import (
	"context"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
)

var _ deployer.ServerPreviewer = (*Deployer)(nil)

// DryRun implements deployer.ServerPreviewer with the manifest deployer's
// dry run, objects without a namespace going to the release namespace. A
// real release is applied by Helm's three-way merge, not server-side
// apply; the dry run still shows what the server makes of each object
// and which fields others set.
func (d *Deployer) DryRun(ctx context.Context, item deployer.Item, objs []deployer.PreviewObject) ([]deployer.PreviewObject, error) {
	session, err := d.previewSession(item)
	if err != nil {
		return nil, err
	}
	return session.DryRun(ctx, objs)
}

// Live implements deployer.ServerPreviewer.
func (d *Deployer) Live(ctx context.Context, item deployer.Item, refs []deployer.ObjectRef) ([]deployer.PreviewObject, error) {
	session, err := d.previewSession(item)
	if err != nil {
		return nil, err
	}
	return session.Live(ctx, refs)
}

func (d *Deployer) previewSession(item deployer.Item) (*manifest.Session, error) {
	cfg, err := ParseConfig(item.Config)
	if err != nil {
		return nil, err
	}
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return nil, err
	}
	return manifest.NewSession(clients, item.ID).WithDefaultNamespace(cfg.Namespace), nil
}
