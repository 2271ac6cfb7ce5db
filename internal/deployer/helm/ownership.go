package helm

import (
	"bytes"

	"helm.sh/helm/v3/pkg/postrender"
	"helm.sh/helm/v3/pkg/release"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// releaseOwner is who a release must belong to. Releases carry the same
// labels as the objects of manifest items (Helm keeps them on its
// storage Secret): the deploy item's label decides who may upgrade a
// release, the instance label who may uninstall it.
type releaseOwner struct {
	item     string // deployer.OwnerValue of the deploy item ID
	itemID   string // the readable deploy item ID, for messages
	instance string // deployer.Item.Instance; "" skips the instance check
	partOf   string // deployer.Item.PartOf, stamped on the release's objects
	// recorded is the revision this item's provider status records (0:
	// none). A release without labels at exactly that revision was
	// installed by this item before releases were labeled.
	recorded int
}

func ownerOf(item deployer.Item, prev ProviderStatus) releaseOwner {
	o := releaseOwner{item: deployer.OwnerValue(item.ID), itemID: item.ID, instance: item.Instance, partOf: item.PartOf}
	if prev.Release != nil && !item.Rebuilt { // a rebuilt revision proves nothing: anyone could have recorded it
		o.recorded = prev.Release.Revision
	}
	return o
}

// labels are the release labels an install or upgrade sets.
func (o releaseOwner) labels() map[string]string {
	l := map[string]string{deployer.OwnerLabel: o.item}
	if o.instance != "" {
		l[deployer.InstanceLabel] = o.instance
	}
	return l
}

// claim decides whether an existing release may be upgraded (or, when an
// install was interrupted, reinstalled) by this item. A release of
// another deploy item, or one that Landscaper did not install (a person's
// `helm install`, another tool), is refused: it is never changed.
func (o releaseOwner) claim(last *release.Release) error {
	switch owner := last.Labels[deployer.OwnerLabel]; {
	case owner == o.item:
		return nil // ours; a newer instance adopts it by relabeling
	case owner == "" && o.recorded != 0 && last.Version == o.recorded:
		return nil // installed by this item before releases were labeled
	case owner == "":
		return failure.Terminalf("ReleaseNotOwned",
			"release %s/%s already exists and was not installed by deploy item %q (it has no %s label); it is left untouched: uninstall it or choose another release name",
			last.Namespace, last.Name, o.itemID, deployer.OwnerLabel)
	default:
		return failure.Terminalf("ReleaseNotOwned",
			"release %s/%s already exists and belongs to another deploy item (%s=%s); it is left untouched: choose another release name",
			last.Namespace, last.Name, deployer.OwnerLabel, owner)
	}
}

// mayUninstall reports whether Delete may uninstall last: a release this
// item may claim that no newer instance has adopted.
func (o releaseOwner) mayUninstall(last *release.Release) bool {
	return o.claim(last) == nil && !deployer.AdoptedBy(last.Labels[deployer.InstanceLabel], o.instance)
}

// holds reports whether last already carries exactly this owner's labels,
// so an unchanged release needs no upgrade to be adopted.
func (o releaseOwner) holds(last *release.Release) bool {
	return last.Labels[deployer.OwnerLabel] == o.item && (o.instance == "" || last.Labels[deployer.InstanceLabel] == o.instance)
}

// stamp is the Helm post-renderer that labels every object of the release
// as the manifest deployer labels its objects: with the owning instance
// and the inventory's ApplySet; nil when there is nothing to stamp.
func (o releaseOwner) stamp() postrender.PostRenderer {
	labels := map[string]string{}
	if o.instance != "" {
		labels[deployer.InstanceLabel] = o.instance
	}
	if o.partOf != "" {
		labels[deployer.PartOfLabel] = o.partOf
	}
	if len(labels) == 0 {
		return nil
	}
	return stamper(labels)
}

type stamper map[string]string

func (s stamper) Run(rendered *bytes.Buffer) (*bytes.Buffer, error) {
	objs, err := parseManifest(rendered.String())
	if err != nil {
		return nil, err
	}
	out := new(bytes.Buffer)
	for _, o := range objs {
		labels := o.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		for k, v := range s {
			labels[k] = v
		}
		o.SetLabels(labels)
		b, err := yaml.Marshal(o.Object)
		if err != nil {
			return nil, err
		}
		out.WriteString("---\n")
		out.Write(b)
	}
	return out, nil
}
