// Package helm is the deployer of type landscaper.gardener.cloud/helm. With
// helmDeployment true (the default) it manages a real Helm release through
// the Helm v3 SDK; with false it renders the chart and applies the objects
// with the manifest deployer's Session.
package helm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/kube"
	"helm.sh/helm/v3/pkg/release"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/sandbox"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Deployer applies helm deploy items.
type Deployer struct {
	pool *target.Pool
	// locks are shared by every copy (Using), so that the installations
	// of one command never race on a release.
	locks *releaseLocks
	// resources reads charts of component resources; nil rejects them.
	resources Resources
	// limits bound every rendering of a chart (sandboxed.go).
	limits sandbox.Limits
	// sql keeps the releases with Helm's SQL driver (storage.go), shared
	// by every copy; nil: Helm's Secret driver.
	sql *sqlStores
}

var (
	_ deployer.Deployer  = (*Deployer)(nil)
	_ deployer.ChartUser = (*Deployer)(nil)
)

// UsingCharts implements deployer.ChartUser: charts that are Resources
// (with ChartRepoAuth, one installation's Context) are read through them
// (Using).
func (d *Deployer) UsingCharts(charts any) deployer.Deployer {
	if r, ok := charts.(Resources); ok {
		return d.Using(r)
	}
	return d
}

// New returns a helm deployer that takes its clients from pool and
// renders charts within the default render limits.
func New(pool *target.Pool) *Deployer {
	return &Deployer{pool: pool, locks: &releaseLocks{}, limits: sandbox.DefaultLimits()}
}

// WithRenderLimits makes d render charts within l (render_limits).
func (d *Deployer) WithRenderLimits(l sandbox.Limits) *Deployer {
	d.limits = l.WithDefaults()
	return d
}

// WithStorage makes d keep release records where s says; s must pass
// Check (the SQL driver connects on first use).
func (d *Deployer) WithStorage(s Storage) *Deployer {
	d.sql = nil
	if s.SQL() {
		d.sql = &sqlStores{storage: s}
	}
	return d
}

// Apply implements deployer.Deployer.
func (d *Deployer) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	prev, err := decodeStatus(item.ProviderStatus)
	if err != nil {
		return deployer.Result{ProviderStatus: item.ProviderStatus}, itemError(item, err)
	}
	keep := prev.result(nil)
	cfg, err := ParseConfig(item.Config)
	if err != nil {
		return keep, itemError(item, err)
	}
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return keep, itemError(item, err)
	}
	ch, digest, err := loadChart(ctx, cfg.Chart, item.Files, d.resources)
	if err != nil {
		return keep, itemError(item, fmt.Errorf("chart: %w", err))
	}
	// Deploy the chart the plan showed, or nothing.
	if _, err := checkChartPin(item.ID, cfg.Chart, item.Pins, digest); err != nil {
		return keep, err
	}
	session := manifest.NewSession(clients, item.ID).WithDefaultNamespace(cfg.Namespace).WithOwner(item).WithOwnManagers(helmFieldManager()).WithTargets(d.pool, item)
	var status ProviderStatus
	if cfg.realRelease() {
		status, err = d.applyRelease(ctx, clients, session, ch, digest, cfg, prev, item)
	} else {
		status, err = d.applyRendered(ctx, clients, session, ch, cfg, prev)
	}
	if err != nil {
		return status.result(nil), itemError(item, err)
	}
	exports, err := readExports(ctx, session, ch, cfg)
	return status.result(exports), itemError(item, err)
}

// applyRelease installs or upgrades the release unless the deployed
// revision is the one recorded, was made from the same chart, values and
// options, and its objects are unchanged in the cluster: then it writes
// nothing. Then it waits for readiness.
func (d *Deployer) applyRelease(ctx context.Context, c *target.Clients, session *manifest.Session, ch *chart.Chart, digest string, cfg *ProviderConfiguration, prev ProviderStatus, item deployer.Item) (ProviderStatus, error) {
	hash := deploymentHash(digest, cfg, item.WriteOnly)
	// Values holding a write-only value hash alike whatever it is: such a
	// release is upgraded at every apply (data_wo_version says when).
	sameHashSays := !item.WriteOnly.Held(item.Config)
	status := ProviderStatus{Release: &ReleaseRef{Name: cfg.Name, Namespace: cfg.Namespace}, ManagedResources: prev.ManagedResources, Hash: prev.Hash}
	owner := ownerOf(item, prev)
	r, err := d.releaser(c, cfg.Name, cfg.Namespace, owner)
	if err != nil {
		return status, err
	}
	if len(ch.CRDObjects()) == 0 {
		// Left to itself, Helm invalidates the discovery cache at every
		// install and upgrade and reads it again (/api, /apis, and the
		// OpenAPI documents it validates with): the cache every deploy item
		// on this cluster shares. The pool's cache is already invalidated
		// whenever a deployer has established CRDs (Mapper.Reset), so the
		// capabilities it gives are as current as the job's own mappings.
		// A chart with CRDs of its own keeps Helm's way: Helm reads the
		// capabilities only after installing them.
		if r.cfg.Capabilities, err = capabilities(c); err != nil {
			return status, err
		}
	}
	fallback := item.Timeouts.Progressing
	if fallback <= 0 {
		fallback = defaultActionTimeout
	}
	key := cfg.Namespace + "/" + cfg.Name
	rel, err := runLocked(ctx, d.locks, key, func() (*release.Release, error) {
		last, err := r.last()
		if err != nil {
			return nil, err
		}
		if sameHashSays && last != nil && last.Info.Status == release.StatusDeployed && prev.Hash == hash &&
			prev.Release != nil && prev.Release.Revision == last.Version && owner.holds(last) {
			objs, err := releaseObjects(last)
			if err != nil {
				return nil, err
			}
			if why, err := session.Compare(ctx, objs); err != nil || why == "" {
				return last, err
			}
		}
		if last != nil && last.Info != nil && last.Info.Status != release.StatusUninstalled {
			if err := owner.checkManifest(ctx, session, last); err != nil {
				return nil, err
			}
		}
		docs, err := d.gateRelease(ctx, c, ch, cfg, last, item.ID, owner)
		if err != nil {
			return nil, err
		}
		if takesOwnership(cfg, last) {
			if err := owner.checkTakeOwnership(ctx, c, cfg.Namespace, docs); err != nil {
				return nil, err
			}
		}
		var created []string
		if freshInstall(last) {
			names, err := chartCRDNames(ch)
			if err != nil {
				return nil, invalid(err)
			}
			if created, err = absentCRDs(ctx, c, names); err != nil {
				return nil, err
			}
		}
		rel, err := r.deploy(last, ch, cfg.values(), cfg, remaining(ctx, fallback))
		if err != nil {
			if cleanupErr := removeCreatedCRDs(ctx, c, r, created); cleanupErr != nil {
				err = errors.Join(err, cleanupErr)
			}
		}
		return rel, err
	})
	if rel == nil || err != nil {
		return status, err
	}
	objs, err := releaseObjects(rel)
	if err != nil {
		return status, err
	}
	status.ManagedResources = managedOf(objs)
	status.Release.Revision, status.Release.FirstDeployed = rel.Version, firstDeployedOf(rel)
	status.Hash = hash
	return status, session.WaitReady(ctx, objs, cfg.ReadinessChecks, nil)
}

// applyRendered renders the chart and applies it like a manifest item; the
// release namespace is created with policy keep when createNamespace is set.
func (d *Deployer) applyRendered(ctx context.Context, c *target.Clients, session *manifest.Session, ch *chart.Chart, cfg *ProviderConfiguration, prev ProviderStatus) (ProviderStatus, error) {
	status := prev
	status.Release = nil
	objs, err := d.render(ctx, c, ch, cfg)
	if err != nil {
		return status, err
	}
	var manifests []manifest.Manifest
	if cfg.CreateNamespace {
		ns, _ := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": cfg.Namespace}})
		manifests = append(manifests, manifest.Manifest{Policy: manifest.PolicyKeep, Manifest: ns})
	}
	manifests = append(manifests, toManifests(objs)...)
	desired, err := manifest.DecodeManifests(session.ItemID(), manifests)
	if err != nil {
		return status, invalid(err)
	}
	plan := manifest.Plan{Objects: desired, Strategy: cfg.UpdateStrategy, Readiness: cfg.ReadinessChecks, DeletionGroups: cfg.DeletionGroupsDuringUpdate}
	if plan.Strategy == "" {
		plan.Strategy = manifest.UpdateStrategyUpdate
	}
	managed, _, err := session.Apply(ctx, plan, prev.ManagedResources)
	status.ManagedResources = managed
	return status, err
}

// releaseObjects are the objects of a release's manifest.
func releaseObjects(rel *release.Release) ([]*manifest.Desired, error) {
	objs, err := parseManifest(rel.Manifest)
	if err != nil {
		return nil, err
	}
	out := make([]*manifest.Desired, 0, len(objs))
	for _, o := range objs {
		out = append(out, &manifest.Desired{Object: o, Spec: manifest.Manifest{Policy: manifest.PolicyManage}})
	}
	return out, nil
}

func managedOf(objs []*manifest.Desired) []manifest.ManagedResource {
	out := make([]manifest.ManagedResource, 0, len(objs))
	for _, d := range objs {
		out = append(out, manifest.ManagedResource{Resource: d.Ref(), Policy: manifest.PolicyManage})
	}
	return out
}

// readExports reads exports from resources (fromResource) and from the
// values the chart was rendered with (jsonPath ".Values.x").
func readExports(ctx context.Context, session *manifest.Session, ch *chart.Chart, cfg *ProviderConfiguration) (map[string]any, error) {
	exports := cfg.exports()
	if len(exports) == 0 {
		return nil, nil
	}
	var fromResources []manifest.Export
	out := map[string]any{}
	for _, e := range exports {
		if e.FromResource != nil {
			fromResources = append(fromResources, e)
			continue
		}
		vals, err := chartutil.CoalesceValues(ch, cfg.values())
		if err != nil {
			return nil, invalid(fmt.Errorf("export %q: %w", e.Key, err))
		}
		v, found, err := manifest.LookupJSONPath(map[string]any{"Values": map[string]any(vals)}, e.JSONPath)
		if err != nil {
			return nil, invalid(fmt.Errorf("export %q: %w", e.Key, err))
		}
		if !found {
			return nil, invalid(fmt.Errorf("export %q: the values have nothing at %s", e.Key, e.JSONPath))
		}
		out[e.Key] = v
	}
	fromRes, err := session.ReadExports(ctx, fromResources)
	if err != nil {
		return nil, err
	}
	for k, v := range fromRes {
		out[k] = v
	}
	return out, nil
}

// Delete implements deployer.Deployer.
func (d *Deployer) Delete(ctx context.Context, item deployer.Item, opts deployer.DeleteOptions) error {
	if opts.WithoutUninstall {
		return nil
	}
	prev, err := decodeStatus(item.ProviderStatus)
	if err != nil {
		return itemError(item, err)
	}
	cfg, cfgErr := ParseConfig(item.Config)
	rel := prev.Release
	if rel == nil && cfgErr == nil && cfg.realRelease() && len(item.ProviderStatus) > 0 {
		rel = &ReleaseRef{Name: cfg.Name, Namespace: cfg.Namespace}
	}
	if rel == nil && len(prev.ManagedResources) == 0 {
		return nil
	}
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return itemError(item, err)
	}
	if rel == nil {
		var groups []manifest.DeletionGroup
		if cfgErr == nil {
			groups = cfg.DeletionGroups
		}
		_, err := manifest.NewSession(clients, item.ID).WithOwner(item).WithTargets(d.pool, item).Delete(ctx, prev.ManagedResources, groups)
		return itemError(item, err)
	}
	var uninstallOpts UninstallOptions
	if cfgErr == nil && cfg.HelmDeploymentConfig != nil {
		uninstallOpts = cfg.HelmDeploymentConfig.Uninstall
	}
	r, err := d.releaser(clients, rel.Name, rel.Namespace, ownerOf(item, prev))
	if err != nil {
		return itemError(item, err)
	}
	// Helm would wait for the objects by re-reading them every 2 s; the
	// session follows them with watches instead, outside the release lock.
	deleted, err := runLocked(ctx, d.locks, rel.Namespace+"/"+rel.Name, func() ([]*manifest.Desired, error) {
		last, err := r.last()
		if err != nil || last == nil {
			return nil, err
		}
		if !r.owner.mayUninstall(last) {
			// Never uninstalled: not this item's (any more). That is
			// only an error when this item deployed (or adopted) a
			// release of that name: then it is left behind.
			return nil, r.owner.leftBehind(last, rel.Revision)
		}
		if err := r.owner.checkManifest(ctx, manifest.NewSession(clients, item.ID).WithDefaultNamespace(rel.Namespace), last); err != nil {
			return nil, err
		}
		objs, err := r.deletedByUninstall()
		if err != nil {
			return nil, err
		}
		return objs, r.uninstall(uninstallOpts, remaining(ctx, defaultActionTimeout), false)
	})
	if err == nil {
		err = manifest.NewSession(clients, item.ID).WithDefaultNamespace(rel.Namespace).WithCall(item).WaitGone(ctx, deleted)
	}
	return itemError(item, err)
}

// Drift implements deployer.Deployer: one read of the release and one per
// object for a real release; for a rendered chart, the chart is rendered
// again and every object read once.
func (d *Deployer) Drift(ctx context.Context, item deployer.Item) (deployer.DriftReport, error) {
	prev, err := decodeStatus(item.ProviderStatus)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	cfg, err := ParseConfig(item.Config)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	clients, err := d.pool.Clients(item.Target)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	session := manifest.NewSession(clients, item.ID).WithDefaultNamespace(cfg.Namespace).WithOwnManagers(helmFieldManager()).WithStrategy(cfg.UpdateStrategy)
	if prev.Release == nil {
		ch, _, err := loadChart(ctx, cfg.Chart, item.Files, d.resources)
		if err != nil {
			return deployer.DriftReport{}, itemError(item, err)
		}
		objs, err := d.render(ctx, clients, ch, cfg)
		if err != nil {
			return deployer.DriftReport{}, itemError(item, err)
		}
		desired, err := manifest.DecodeManifests(item.ID, toManifests(objs))
		if err != nil {
			return deployer.DriftReport{}, itemError(item, invalid(err))
		}
		report, err := session.Drift(ctx, desired, prev.ManagedResources)
		return report, itemError(item, err)
	}
	r, err := d.releaser(clients, prev.Release.Name, prev.Release.Namespace, ownerOf(item, prev))
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	last, err := r.last()
	switch {
	case err != nil:
		return deployer.DriftReport{}, itemError(item, err)
	case last == nil:
		return deployer.DriftReport{Drifted: true, Reason: fmt.Sprintf("release %s/%s no longer exists", prev.Release.Namespace, prev.Release.Name)}, nil
	case last.Version != prev.Release.Revision || last.Info.Status != release.StatusDeployed:
		return deployer.DriftReport{Drifted: true, Reason: fmt.Sprintf("release %s/%s is at revision %d (%s), recorded revision %d",
			last.Namespace, last.Name, last.Version, last.Info.Status, prev.Release.Revision)}, nil
	}
	objs, err := releaseObjects(last)
	if err != nil {
		return deployer.DriftReport{}, itemError(item, err)
	}
	why, err := session.Compare(ctx, objs)
	return deployer.DriftReport{Drifted: why != "", Reason: why}, itemError(item, err)
}

// helmFieldManager is the field manager the Helm SDK writes release
// objects with, as kube.Client picks it: a drift in a field it holds names
// no other manager.
func helmFieldManager() string {
	if kube.ManagedFieldsManager != "" {
		return kube.ManagedFieldsManager
	}
	return filepath.Base(os.Args[0])
}

// toManifests wraps rendered objects as manifests with policy manage.
// Validate implements deployer.Deployer with the configuration parser
// Apply uses; the chart itself is fetched only at apply.
func (d *Deployer) Validate(config json.RawMessage) error {
	_, err := ParseConfig(config)
	return err
}

func toManifests(objs []*unstructured.Unstructured) []manifest.Manifest {
	out := make([]manifest.Manifest, 0, len(objs))
	for _, o := range objs {
		b, _ := json.Marshal(o.Object) // decoded from YAML, so it encodes
		out = append(out, manifest.Manifest{Policy: manifest.PolicyManage, Manifest: b})
	}
	return out
}

func itemError(item deployer.Item, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("deploy item %q: %w", item.Name, err)
}
