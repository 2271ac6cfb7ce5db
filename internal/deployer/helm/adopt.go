package helm

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"helm.sh/helm/v3/pkg/release"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

var _ deployer.Adopter = (*Deployer)(nil)

// Adopt implements deployer.Adopter. What is adopted is what Landscaper's
// DeployItem deployed (from.Config): the item must render the same
// release, or the same kind of deployment, or it is refused — a release
// the rendered item merely names may be anyone's. A real release is read
// once: it must exist, be deployed, not belong to another deploy item of
// this provider and hold the objects Landscaper's Helm deployer recorded.
// Its revision and first deployment are recorded: Landscaper's Helm
// deployer leaves no mark of its own on a release, and the first
// deployment is the one Helm keeps through every later revision, so the
// release stays this item's when Landscaper upgrades it again before its
// controllers are gone (releaseOwner.claim); the next upgrade of this
// provider labels it. A rendered chart's objects are adopted like a
// manifest item's. Nothing is written.
func (d *Deployer) Adopt(ctx context.Context, item deployer.Item, from deployer.Landscaped) (json.RawMessage, error) {
	cfg, err := ParseConfig(item.Config)
	if err != nil {
		return nil, itemError(item, err)
	}
	if err := sameDeployment(cfg, from); err != nil {
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
	r, err := d.releaser(clients, cfg.Name, cfg.Namespace, releaseOwner{})
	if err != nil {
		return nil, itemError(item, err)
	}
	last, err := r.last()
	switch {
	case err != nil:
		return nil, itemError(item, err)
	case last == nil && d.sql != nil:
		return nil, itemError(item, failure.Terminalf("AdoptMissing", "release %s/%s, which Landscaper's DeployItem %s installed, is not in the SQL storage "+
			"that helm_storage names: Landscaper's Helm deployer keeps releases in Secrets, so import with driver = %q",
			cfg.Namespace, cfg.Name, from.DeployItem, DriverSecret))
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
	if err := recordedInRelease(objs, cfg.Namespace, from); err != nil {
		return nil, itemError(item, failure.Terminalf("AdoptOtherRelease", "release %s/%s is not the one Landscaper's DeployItem %s deployed: %v; it is not adopted",
			cfg.Namespace, cfg.Name, from.DeployItem, err))
	}
	ref := &ReleaseRef{Name: cfg.Name, Namespace: cfg.Namespace, Revision: last.Version, FirstDeployed: firstDeployedOf(last)}
	return ProviderStatus{Release: ref, ManagedResources: managedOf(objs)}.encode(), nil
}

// landscaperDeployment is what Adopt reads of the configuration
// Landscaper's DeployItem deployed.
type landscaperDeployment struct {
	Name           string `json:"name"`
	Namespace      string `json:"namespace"`
	HelmDeployment *bool  `json:"helmDeployment"`
}

// sameDeployment fails unless cfg, as rendered, deploys what Landscaper's
// DeployItem deployed: the same release, as a release or as plain
// manifests alike.
func sameDeployment(cfg *ProviderConfiguration, from deployer.Landscaped) error {
	var ls landscaperDeployment
	if len(from.Config) == 0 || json.Unmarshal(from.Config, &ls) != nil {
		return failure.Terminalf("AdoptNoConfig", "Landscaper's DeployItem %s has no readable Helm configuration (spec.config); nothing is adopted", from.DeployItem)
	}
	lsReal := ls.HelmDeployment == nil || *ls.HelmDeployment
	switch {
	case lsReal != cfg.realRelease():
		return failure.Terminalf("AdoptOtherRelease", "Landscaper's DeployItem %s deployed the chart %s, the Installation now renders it %s; "+
			"let Landscaper reconcile the changed Installation, then import it", from.DeployItem, deploymentKind(lsReal), deploymentKind(cfg.realRelease()))
	case ls.Name != cfg.Name || ls.Namespace != cfg.Namespace:
		return failure.Terminalf("AdoptOtherRelease", "Landscaper's DeployItem %s deployed release %s/%s, the Installation now renders release %s/%s; "+
			"a release Landscaper did not deploy is never adopted: let Landscaper reconcile the changed Installation, then import it",
			from.DeployItem, ls.Namespace, ls.Name, cfg.Namespace, cfg.Name)
	}
	return nil
}

func deploymentKind(asRelease bool) string {
	if asRelease {
		return "as a Helm release"
	}
	return "as plain manifests (helmDeployment: false)"
}

// recordedInRelease fails when an object Landscaper's Helm deployer
// recorded for the release (its providerStatus lists the release's
// workloads) is not in the release's manifest: then the release of that
// name was installed again since. An object of the manifest without a
// namespace is in the release's namespace, or cluster-scoped.
func recordedInRelease(objs []*manifest.Desired, namespace string, from deployer.Landscaped) error {
	var recorded manifest.ProviderStatus
	if len(from.ProviderStatus) > 0 && string(from.ProviderStatus) != "null" {
		if err := json.Unmarshal(from.ProviderStatus, &recorded); err != nil {
			return fmt.Errorf("its provider status cannot be read")
		}
	}
	in := map[string]bool{}
	for _, o := range objs {
		ref := o.Ref()
		in[objectKey(ref)] = true
		if ref.Namespace == "" {
			ref.Namespace = namespace
			in[objectKey(ref)] = true
		}
	}
	var missing []string
	recordedKeys := map[string]bool{}
	for _, m := range recorded.ManagedResources {
		k := objectKey(m.Resource)
		recordedKeys[k] = true
		if !in[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return fmt.Errorf("it does not hold %s, which Landscaper recorded", strings.Join(missing, ", "))
	}
	// The converse: Landscaper's Helm deployer records every workload of
	// the release's manifest (the kinds its default readiness check
	// reads), so a workload it did not record means the DeployItem does
	// not describe this release — a DeployItem written with an empty
	// record would otherwise get any release of that name adopted (issue
	// 32, suspicion a). A release without workloads leaves an empty
	// record, which proves nothing either way.
	var unrecorded []string
	for _, o := range objs {
		ref := o.Ref()
		if !landscaperWorkload(ref.APIVersion, ref.Kind) {
			continue
		}
		if ref.Namespace == "" {
			ref.Namespace = namespace
		}
		if k := objectKey(ref); !recordedKeys[k] {
			unrecorded = append(unrecorded, k)
		}
	}
	if len(unrecorded) == 0 {
		return nil
	}
	sort.Strings(unrecorded)
	return fmt.Errorf("it holds %s, which Landscaper did not record", strings.Join(unrecorded, ", "))
}

// landscaperWorkload says whether Landscaper's Helm deployer records an
// object of this kind in its provider status: the kinds of its default
// readiness check (Pod, ReplicationController, and Deployment, ReplicaSet,
// StatefulSet, DaemonSet of group apps).
func landscaperWorkload(apiVersion, kind string) bool {
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		group = ""
	}
	switch group + "/" + kind {
	case "/Pod", "/ReplicationController", "apps/Deployment", "apps/ReplicaSet", "apps/StatefulSet", "apps/DaemonSet":
		return true
	}
	return false
}

// objectKey names an object independent of its API version:
// "Kind.group namespace/name".
func objectKey(r manifest.ObjectRef) string {
	kind := r.Kind
	if i := strings.Index(r.APIVersion, "/"); i >= 0 {
		kind += "." + r.APIVersion[:i]
	}
	if r.Namespace == "" {
		return kind + " " + r.Name
	}
	return kind + " " + r.Namespace + "/" + r.Name
}

func statusOf(rel *release.Release) string {
	if rel.Info == nil {
		return "without status"
	}
	return rel.Info.Status.String()
}
