package helm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// releaseAt returns the newest revision of release name in ns.
func releaseAt(t *testing.T, storage *action.Configuration, name string) *release.Release {
	t.Helper()
	rel, err := storage.Releases.Last(name)
	if err != nil {
		t.Fatalf("release %s: %v", name, err)
	}
	return rel
}

// ownershipFixture is a fresh namespace, a chart of one ConfigMap, the
// namespace's Helm storage and a deployer.
func ownershipFixture(t *testing.T) (string, *chart.Chart, *action.Configuration, *helm.Deployer) {
	ns := localcluster.Namespace(t)
	return ns, valuesChart(t, ns), helmStorage(t, ns), helm.New(target.NewPool())
}

// TestRelease_NotOwnedIsRefused: a release with the item's namespace/name
// that a person (helm install) or another deploy item made is never
// upgraded or uninstalled; Apply fails with an error naming the release.
func TestRelease_NotOwnedIsRefused(t *testing.T) {
	ns, ch, storage, d := ownershipFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	install := action.NewInstall(storage)
	install.ReleaseName, install.Namespace = "by-hand", ns
	if _, err := install.Run(ch, map[string]any{"v": "person"}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Apply(ctx, helmItem(t, "a", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "other-item", "values": map[string]any{"v": "a"}}))); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct{ release, want string }{
		{"by-hand", "was not installed by deploy item"},
		{"other-item", "belongs to another deploy item"},
	} {
		item := helmItem(t, "b", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": tc.release, "values": map[string]any{"v": "b"}}))
		before := releaseAt(t, storage, tc.release)
		_, err := d.Apply(ctx, item)
		if err == nil || !strings.Contains(err.Error(), "release "+ns+"/"+tc.release) || !strings.Contains(err.Error(), tc.want) {
			t.Fatalf("Apply over release %s: err = %v, want it refused (%q) naming the release", tc.release, err, tc.want)
		}
		// Delete with a status that names the release, as after a lost one.
		item.ProviderStatus = []byte(`{"apiVersion":"helm.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderStatus","managedResources":[],"release":{"name":"` + tc.release + `","namespace":"` + ns + `"}}`)
		if err := d.Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
			t.Fatalf("Delete of a release not owned: %v", err)
		}
		after := releaseAt(t, storage, tc.release)
		if after.Version != before.Version || after.Info.Status != release.StatusDeployed {
			t.Fatalf("release %s changed: revision %d (%s), was %d", tc.release, after.Version, after.Info.Status, before.Version)
		}
	}
	if got := newClusterReader(t).configMapData(t, ns, "by-hand")["v"]; got != "person" {
		t.Fatalf("the person's release was changed: v = %q", got)
	}
}

// TestRelease_AdoptedByNewerInstance: a newer instance of the same item
// adopts the release (labels it), and Delete by the older instance then
// leaves it; the newer instance's Delete uninstalls it.
func TestRelease_AdoptedByNewerInstance(t *testing.T) {
	ns, ch, storage, d := ownershipFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "adopted", "values": map[string]any{"v": "1"}})

	old := helmItem(t, "x", cfg)
	old.Instance = "instance-1"
	res, err := d.Apply(ctx, old)
	if err != nil {
		t.Fatal(err)
	}
	old.ProviderStatus = res.ProviderStatus
	if l := releaseAt(t, storage, "adopted").Labels; l[deployer.OwnerLabel] != deployer.OwnerValue("x") || l[deployer.InstanceLabel] != "instance-1" {
		t.Fatalf("release labels = %v, want the item and instance", l)
	}

	newer := helmItem(t, "x", cfg) // a lost state: no provider status
	newer.Instance, newer.PartOf = "instance-2", "applyset-x-v1"
	res, err = d.Apply(ctx, newer)
	if err != nil {
		t.Fatalf("the newer instance cannot adopt its release: %v", err)
	}
	newer.ProviderStatus = res.ProviderStatus
	if l := releaseAt(t, storage, "adopted").Labels; l[deployer.InstanceLabel] != "instance-2" {
		t.Fatalf("release labels = %v, want instance instance-2", l)
	}
	// The release's objects carry the instance and ApplySet like a manifest item's.
	cm, err := newClusterReader(t).c.CoreV1().ConfigMaps(ns).Get(ctx, "adopted", metav1GetOptions)
	if err != nil {
		t.Fatal(err)
	}
	if cm.Labels[deployer.InstanceLabel] != "instance-2" || cm.Labels[deployer.PartOfLabel] != "applyset-x-v1" {
		t.Fatalf("the release's ConfigMap has labels %v, want the newer instance and the ApplySet", cm.Labels)
	}
	if err := d.Delete(ctx, old, deployer.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if rel := releaseAt(t, storage, "adopted"); rel.Info.Status != release.StatusDeployed {
		t.Fatalf("the old instance's Delete uninstalled the adopted release (%s)", rel.Info.Status)
	}
	if err := d.Delete(ctx, newer, deployer.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := storage.Releases.Last("adopted"); err == nil {
		t.Fatal("the newer instance's Delete left the release")
	}
}
