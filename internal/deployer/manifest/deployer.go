// Package manifest is the deployer of type
// landscaper.gardener.cloud/kubernetes-manifest: it applies Kubernetes
// objects with server-side apply, waits for their readiness, reads exports
// and deletes what it created. Its Session is also the engine of the Helm
// deployer's manifest mode.
package manifest

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Deployer applies manifest deploy items.
type Deployer struct {
	pool *target.Pool
}

var (
	_ deployer.Deployer   = (*Deployer)(nil)
	_ deployer.FileReader = (*Deployer)(nil)
)

// ReadsFiles implements deployer.FileReader: manifests are in the config,
// and a drift check compares what the provider status records.
func (d *Deployer) ReadsFiles() bool { return false }

// New returns a manifest deployer that takes its clients from pool.
func New(pool *target.Pool) *Deployer { return &Deployer{pool: pool} }

// Apply implements deployer.Deployer.
func (d *Deployer) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	prev, err := DecodeStatus(item.ProviderStatus)
	if err != nil {
		return deployer.Result{ProviderStatus: item.ProviderStatus}, itemError(item, err)
	}
	// What an Apply that fails before writing anything returns; encoded
	// only then, as most calls succeed.
	keep := func() deployer.Result { return NewResult(prev, nil) }
	cfg, err := ParseConfig(item.Config)
	if err != nil {
		return keep(), itemError(item, err)
	}
	objs, err := DecodeManifests(item.ID, cfg.Manifests)
	if err != nil {
		return keep(), itemError(item, invalid(err))
	}
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return keep(), itemError(item, err)
	}
	plan := Plan{Objects: objs, Strategy: cfg.UpdateStrategy, Readiness: cfg.ReadinessChecks, DeletionGroups: cfg.DeletionGroupsDuringUpdate}
	if cfg.DeleteTimeout != nil {
		plan.DeleteTimeout = cfg.DeleteTimeout.Effective()
	}
	if cfg.Exports != nil {
		plan.Exports = cfg.Exports.Exports
	}
	managed, exports, err := NewSession(clients, item.ID).WithOwner(item).WithTargets(d.pool, item).Apply(ctx, plan, prev)
	return NewResult(managed, exports), itemError(item, err)
}

// Delete implements deployer.Deployer. Besides what the status records, it
// deletes configured objects that carry this item's label although the
// status lost them (an Apply that never returned), at one read each.
func (d *Deployer) Delete(ctx context.Context, item deployer.Item, opts deployer.DeleteOptions) error {
	if opts.WithoutUninstall {
		return nil
	}
	prev, err := DecodeStatus(item.ProviderStatus)
	if err != nil {
		return itemError(item, err)
	}
	var groups []DeletionGroup
	var configured []*Desired
	// A config that no longer parses must not block the deletion.
	cfg, err := ParseConfig(item.Config)
	if err == nil {
		groups = cfg.DeletionGroups
		configured, _ = DecodeManifests(item.ID, cfg.Manifests)
	} else {
		cfg = nil
	}
	ctx, cancel := cfg.deleteContext(ctx)
	defer cancel()
	if len(prev) == 0 && len(configured) == 0 {
		return nil
	}
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return itemError(item, err)
	}
	session := NewSession(clients, item.ID).WithOwner(item).WithTargets(d.pool, item)
	unrecorded, err := session.ownedUnrecorded(ctx, configured, prev)
	if err != nil {
		return itemError(item, err)
	}
	_, err = session.Delete(ctx, append(prev, unrecorded...), groups)
	return itemError(item, err)
}

// Drift implements deployer.Deployer.
func (d *Deployer) Drift(ctx context.Context, item deployer.Item) (deployer.DriftReport, error) {
	prev, err := DecodeStatus(item.ProviderStatus)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	cfg, err := ParseConfig(item.Config)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	objs, err := DecodeManifests(item.ID, cfg.Manifests)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, invalid(err))
	}
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	report, err := NewSession(clients, item.ID).WithOwner(item).WithStrategy(cfg.UpdateStrategy).Drift(ctx, objs, prev)
	return report, itemError(item, err)
}

// Validate implements deployer.Deployer: the configuration and every
// manifest in it must decode as Apply decodes them, and no object may be
// larger than the API server takes (checkSizes).
func (d *Deployer) Validate(config json.RawMessage) error {
	cfg, err := ParseConfig(config)
	if err != nil {
		return err
	}
	desired, err := DecodeManifests("", cfg.Manifests)
	if err != nil {
		return invalid(err)
	}
	return checkSizes(cfg.Manifests, desired)
}

// itemError names the deploy item; the failure class is kept.
func itemError(item deployer.Item, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("deploy item %q: %w", item.Name, err)
}
