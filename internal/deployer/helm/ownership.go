package helm

import (
	"bytes"
	"fmt"
	"time"

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
	// none), firstDeployed the release's first deployment it records
	// ("": none). Both say which release this item deployed or adopted
	// when the release has no labels (claim).
	recorded      int
	firstDeployed string
	rebuilt       bool // the provider status was rebuilt from the inventory: its record proves nothing
}

func ownerOf(item deployer.Item, prev ProviderStatus) releaseOwner {
	o := releaseOwner{item: deployer.OwnerValue(item.ID), itemID: item.ID, instance: item.Instance, partOf: item.PartOf, rebuilt: item.Rebuilt}
	if prev.Release != nil && !item.Rebuilt { // a rebuilt record proves nothing: anyone could have written it
		o.recorded, o.firstDeployed = prev.Release.Revision, prev.Release.FirstDeployed
	}
	return o
}

// firstDeployedOf is rel's first deployment time as ReleaseRef records it.
func firstDeployedOf(rel *release.Release) string {
	if rel.Info == nil || rel.Info.FirstDeployed.IsZero() {
		return ""
	}
	return rel.Info.FirstDeployed.UTC().Format(time.RFC3339Nano)
}

// recordedRelease reports whether last, a release without this
// provider's labels, is the one this item's provider status records: the
// same release line (first deployed at the recorded time, whatever its
// revision: Landscaper's Helm deployer upgrades an adopted release on
// each reconcile, and Helm does not keep labels it does not know of
// before v3.13), or — for a status that predates that record — exactly
// the recorded revision, which this item installed before releases were
// labeled.
func (o releaseOwner) recordedRelease(last *release.Release) bool {
	if o.firstDeployed != "" {
		return firstDeployedOf(last) == o.firstDeployed
	}
	return o.recorded != 0 && last.Version == o.recorded
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
// another deploy item, or one that neither this item nor the Landscaper
// DeployItem it adopted installed (a person's `helm install`, another
// tool), is refused: it is never changed.
func (o releaseOwner) claim(last *release.Release) error {
	why := o.notOwned(last)
	switch {
	case why == "":
		return nil
	case last.Labels[deployer.OwnerLabel] != "":
		return failure.Terminalf("ReleaseNotOwned", "release %s/%s already exists and %s; it is left untouched: choose another release name",
			last.Namespace, last.Name, why)
	}
	return failure.Terminalf("ReleaseNotOwned", "release %s/%s already exists and %s; it is left untouched: uninstall it or choose another release name",
		last.Namespace, last.Name, why)
}

// notOwned says why last is not this item's release, "" when it is.
func (o releaseOwner) notOwned(last *release.Release) string {
	switch owner := last.Labels[deployer.OwnerLabel]; {
	case owner == o.item:
		return "" // ours; a newer instance adopts it by relabeling
	case owner == "" && o.recordedRelease(last):
		return "" // adopted from Landscaper, or installed before releases were labeled
	case owner == "" && o.recorded != 0:
		return fmt.Sprintf("is not the release deploy item %q recorded (revision %d%s): it has no %s label and is at revision %d, first deployed %s, "+
			"so someone else installed (or upgraded) it", o.itemID, o.recorded, firstDeployedNote(o.firstDeployed), deployer.OwnerLabel, last.Version, firstDeployedOf(last))
	case owner == "":
		return fmt.Sprintf("was not installed by deploy item %q (it has no %s label)", o.itemID, deployer.OwnerLabel)
	default:
		return fmt.Sprintf("belongs to another deploy item (%s=%s)", deployer.OwnerLabel, owner)
	}
}

func firstDeployedNote(t string) string {
	if t == "" {
		return ""
	}
	return ", first deployed " + t
}

// mayUninstall reports whether Delete may uninstall last: a release this
// item may claim that no newer instance has adopted.
func (o releaseOwner) mayUninstall(last *release.Release) bool {
	return o.claim(last) == nil && !deployer.AdoptedBy(last.Labels[deployer.InstanceLabel], o.instance)
}

// leftBehind is Delete's verdict on last, a release of this item's name
// it may not uninstall: nothing when this item never recorded a revision
// of it (its install was refused: the release was never its own) or a
// newer instance of the item adopted it (create_before_destroy); else an
// error, so that a destroy that leaves a release this item deployed never
// succeeds silently.
func (o releaseOwner) leftBehind(last *release.Release, recorded int) error {
	if recorded == 0 || deployer.AdoptedBy(last.Labels[deployer.InstanceLabel], o.instance) {
		return nil
	}
	why := o.notOwned(last)
	if why == "" {
		return nil
	}
	claimed := "which deploy item %q deployed or adopted (revision %d)"
	if o.rebuilt {
		// Reported, not acted on: the record may be planted, and may as
		// well be this item's own after a lost state.
		claimed = "which the inventory records for deploy item %q (revision %d; a record rebuilt from the inventory does not prove it)"
	}
	return failure.Terminalf("ReleaseLeftBehind",
		"release %s/%s, "+claimed+", was not uninstalled: it %s. Uninstall it yourself "+
			"(helm uninstall) and destroy again, or remove the installation from the state to leave it",
		last.Namespace, last.Name, o.itemID, recorded, why)
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
	if labels := o.stampLabels(); labels != nil {
		return labels
	}
	return nil
}

// stampLabels are the labels stamp adds; nil: none.
func (o releaseOwner) stampLabels() stamper {
	labels := stamper{}
	if o.instance != "" {
		labels[deployer.InstanceLabel] = o.instance
	}
	if o.partOf != "" {
		labels[deployer.PartOfLabel] = o.partOf
	}
	if len(labels) == 0 {
		return nil
	}
	return labels
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
