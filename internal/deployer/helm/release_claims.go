package helm

import (
	"context"
	"fmt"
	"strings"

	"helm.sh/helm/v3/pkg/release"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// A release's revisions are Secrets in its namespace (sh.helm.release.v1.
// <name>.v<N>), and the owner label a release carries is computable from
// the deploy item's ID. Whoever may write Secrets there can therefore add
// a revision N+1 with the item's label whose manifest lists objects of
// others: Helm's upgrade deletes what the last revision lists and the new
// one does not, its uninstall everything the last revision lists. So the
// manifest of the newest revision is trusted only when it is the revision
// Terraform state records for the item; any other revision may list only
// objects that do not exist or that this release manages: Helm annotates
// every object it installs or upgrades with the release's name and
// namespace (for Landscaper's Helm deployer, an older instance and the
// provider alike). Whoever may write Secrets cannot annotate others'
// objects.
//
// With Helm's SQL driver (storage.go) the revisions are rows of a
// database instead, which only those with its credentials may write: the
// configuration's own, not a tenant's. The same checks hold for them all
// the same — releases are read through one path, whatever the driver —
// so a database that others share is no way around them either.

// Helm's annotations of the objects a release manages.
const (
	helmReleaseName      = "meta.helm.sh/release-name"
	helmReleaseNamespace = "meta.helm.sh/release-namespace"
)

// trustsManifest reports whether last's manifest is the one this item's
// state records.
func (o releaseOwner) trustsManifest(last *release.Release) bool {
	return !o.rebuilt && o.recorded != 0 && last.Version == o.recorded
}

// managedBy reports whether an object with these annotations is one
// release last manages: Helm's annotations name it.
func managedBy(last *release.Release, annotations map[string]string) bool {
	return annotations[helmReleaseName] == last.Name && annotations[helmReleaseNamespace] == last.Namespace
}

// stringMap is a string map of decoded JSON metadata.
func stringMap(v any) map[string]string {
	raw, _ := v.(map[string]any)
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		out[k], _ = v.(string)
	}
	return out
}

// foreignIn returns the live objects of last's manifest (live: as read
// from the cluster; missing ones are not listed) that are not the
// release's (managedBy), when last's manifest is not trusted.
func (o releaseOwner) foreignIn(last *release.Release, live []deployer.PreviewObject) []string {
	if o.trustsManifest(last) {
		return nil
	}
	var out []string
	for _, obj := range live {
		md, _ := obj.Object["metadata"].(map[string]any)
		if !managedBy(last, stringMap(md["annotations"])) {
			ns, _ := md["namespace"].(string)
			name, _ := md["name"].(string)
			kind, _ := obj.Object["kind"].(string)
			out = append(out, fmt.Sprintf("%s %s/%s", kind, ns, name))
		}
	}
	return out
}

// checkManifest refuses to let Helm act on last (upgrade or uninstall)
// when its manifest lists objects of others that exist.
func (o releaseOwner) checkManifest(ctx context.Context, session *manifest.Session, last *release.Release) error {
	if o.trustsManifest(last) {
		return nil
	}
	objs, err := releaseObjects(last)
	if err != nil {
		return err
	}
	refs := make([]deployer.ObjectRef, len(objs))
	for i, d := range objs {
		r := d.Ref()
		refs[i] = deployer.ObjectRef{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
	}
	live, err := session.Live(ctx, refs)
	if err != nil {
		return fmt.Errorf("release %s/%s: reading the objects revision %d lists: %w", last.Namespace, last.Name, last.Version, err)
	}
	foreign := o.foreignIn(last, live)
	if len(foreign) == 0 {
		return nil
	}
	if len(foreign) > 5 {
		foreign = append(foreign[:5], fmt.Sprintf("and %d more", len(foreign)-5))
	}
	return failure.Terminalf("ReleaseNotOwned", "release %s/%s: its newest revision %d is not the revision %d deploy item %q recorded, and "+
		"it lists objects that this release does not manage (%s): someone who may write the release records of %s (Helm's Secrets there, or the database helm_storage names) may have added it. "+
		"Helm would delete them, so the release is left untouched: check `helm history %s -n %s`, remove the revision if it is not "+
		"yours (or roll back to your own), and apply again",
		last.Namespace, last.Name, last.Version, o.recorded, o.itemID, strings.Join(foreign, ", "), last.Namespace, last.Name, last.Namespace)
}

// Helm's takeOwnership (helm --take-ownership) adopts every existing
// object the chart renders, whatever claims it; the provider's owner-label
// rules do not reach inside Helm. So, before Helm runs with it, every
// rendered object that exists is read, and one that another deploy item
// (deployer.OwnerLabel) or another installation (deployer.PartOfLabel)
// claims is refused: adopting it would take it from its owner, and the
// next uninstall would delete it. Objects nobody labelled — what
// takeOwnership is for — are adopted as before.

// takesOwnership says whether the Helm action that follows adopts objects.
func takesOwnership(cfg *ProviderConfiguration, last *release.Release) bool {
	if cfg.HelmDeploymentConfig == nil {
		return false
	}
	if freshInstall(last) {
		return cfg.HelmDeploymentConfig.Install.TakeOwnership
	}
	return cfg.HelmDeploymentConfig.Upgrade.TakeOwnership
}

// checkTakeOwnership refuses when a rendered object that exists is claimed
// by another deploy item or installation. Only metadata is read.
func (o releaseOwner) checkTakeOwnership(ctx context.Context, c *target.Clients, namespace string, docs []renderedDoc) error {
	var claimed []string
	for _, doc := range docs {
		objs, err := parseManifest(doc.content)
		if err != nil {
			return invalid(err)
		}
		for _, u := range objs {
			gvk := u.GroupVersionKind()
			m, err := c.Mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
			if err != nil {
				continue // a kind the cluster does not know yet: nothing of it exists
			}
			ns := u.GetNamespace()
			if ns == "" && m.Scope.Name() == meta.RESTScopeNameNamespace {
				ns = namespace
			}
			live, err := c.Metadata.Resource(m.Resource).Namespace(ns).Get(ctx, u.GetName(), metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				continue
			}
			if err != nil {
				return fmt.Errorf("takeOwnership: reading %s %s/%s: %w", gvk.Kind, ns, u.GetName(), err)
			}
			owner, partOf := live.Labels[deployer.OwnerLabel], live.Labels[deployer.PartOfLabel]
			if (owner == "" || owner == o.item) && (partOf == "" || partOf == o.partOf) {
				continue
			}
			claimed = append(claimed, fmt.Sprintf("%s %s/%s", gvk.Kind, ns, u.GetName()))
		}
	}
	if len(claimed) == 0 {
		return nil
	}
	if len(claimed) > 5 {
		claimed = append(claimed[:5], fmt.Sprintf("and %d more", len(claimed)-5))
	}
	return failure.Terminalf("ObjectClaimed", "deploy item %q: takeOwnership would let Helm adopt objects that another deploy item or "+
		"installation owns (%s, labelled %s or %s): they are left alone and the release is not changed. Remove them from the chart, or "+
		"remove their owner's labels if they really are this release's, and apply again",
		o.itemID, strings.Join(claimed, ", "), deployer.OwnerLabel, deployer.PartOfLabel)
}
