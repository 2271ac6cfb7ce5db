package helm_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/release"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
)

// asLandscaper installs or upgrades release name as Landscaper's Helm
// deployer does: through the Helm SDK, without any label of this
// provider's.
func asLandscaper(t *testing.T, storage *action.Configuration, ns, name string, ch *chart.Chart, v string) *release.Release {
	t.Helper()
	vals := map[string]any{"v": v}
	if _, err := storage.Releases.Last(name); err != nil {
		install := action.NewInstall(storage)
		install.ReleaseName, install.Namespace = name, ns
		rel, err := install.Run(ch, vals)
		if err != nil {
			t.Fatal(err)
		}
		return rel
	}
	upgrade := action.NewUpgrade(storage)
	upgrade.Namespace = ns
	rel, err := upgrade.Run(name, ch, vals)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// adoptedItem is the item of release name as an import adopts it from
// Landscaper's DeployItem (which deployed lsConfig), with the provider
// status Adopt returned.
func adoptedItem(ctx context.Context, t *testing.T, d *helm.Deployer, id string, config, lsConfig json.RawMessage) deployer.Item {
	t.Helper()
	item := helmItem(t, id, config)
	item.Instance = "instance-1"
	status, err := d.Adopt(ctx, item, deployer.Landscaped{DeployItem: "di-" + id, Config: lsConfig})
	if err != nil {
		t.Fatalf("Adopt: %v", err)
	}
	item.ProviderStatus = status
	return item
}

// TestAdopt_ReleaseStaysOursThroughLandscapersUpgrades (issue 26): a
// release adopted at revision 1 that Landscaper's Helm deployer upgrades
// again before its controllers are gone (revision 2, still without a
// label) stays the item's: drift reports the new revision, an apply
// upgrades and labels it, and a delete — right away or after that apply —
// uninstalls it. Before, the apply was refused ("not installed by deploy
// item") and the delete left the release behind and returned nil.
func TestAdopt_ReleaseStaysOursThroughLandscapersUpgrades(t *testing.T) {
	ns, ch, storage, d := ownershipFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	for _, applyFirst := range []bool{false, true} {
		name := "deleted-at-once"
		if applyFirst {
			name = "applied-then-deleted"
		}
		t.Run(name, func(t *testing.T) {
			cfg := helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": name, "values": map[string]any{"v": "ls"}})
			asLandscaper(t, storage, ns, name, ch, "ls")
			item := adoptedItem(ctx, t, d, "root/"+name, cfg, cfg)
			if rel := asLandscaper(t, storage, ns, name, ch, "ls"); rel.Version != 2 {
				t.Fatalf("Landscaper's reconcile made revision %d, want 2", rel.Version)
			}
			report, err := d.Drift(ctx, item)
			if err != nil || !report.Drifted || !strings.Contains(report.Reason, "revision 2 (deployed), recorded revision 1") {
				t.Fatalf("Drift after Landscaper's upgrade = %+v, %v; want the new revision reported", report, err)
			}
			if applyFirst {
				res, err := d.Apply(ctx, item)
				if err != nil {
					t.Fatalf("Apply of the adopted release after Landscaper's upgrade: %v", err)
				}
				item.ProviderStatus = res.ProviderStatus
				if l := releaseAt(t, storage, name).Labels; l[deployer.OwnerLabel] != deployer.OwnerValue(item.ID) {
					t.Fatalf("the apply did not label the release: %v", l)
				}
				if report, err := d.Drift(ctx, item); err != nil || report.Drifted {
					t.Fatalf("Drift after the apply = %+v, %v", report, err)
				}
			}
			if err := d.Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			if rel, err := storage.Releases.Last(name); err == nil {
				t.Fatalf("Delete left the release at revision %d (%s)", rel.Version, rel.Info.Status)
			}
		})
	}
}

// TestAdopt_OnlyWhatLandscaperDeployed (issue 22's suspected item,
// confirmed): adoption took whatever release the rendered item named —
// also one a person installed by hand — when the Installation rendered
// another release than Landscaper's DeployItem deployed. Now only the
// release Landscaper's DeployItem names is adopted, as the same kind of
// deployment, and only while it holds what Landscaper recorded; nothing
// refused is written.
func TestAdopt_OnlyWhatLandscaperDeployed(t *testing.T) {
	ns, ch, storage, d := ownershipFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	asLandscaper(t, storage, ns, "from-landscaper", ch, "ls")
	byHand := asLandscaper(t, storage, ns, "by-hand", ch, "person")
	lsConfig := helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "from-landscaper", "values": map[string]any{"v": "ls"}})
	cm := func(name string) string {
		return `{"managedResources":[{"resource":{"apiVersion":"v1","kind":"ConfigMap","name":"` + name + `","namespace":"` + ns + `"}}]}`
	}
	for _, tc := range []struct {
		name           string
		rendered       map[string]any
		lsConfig       json.RawMessage
		providerStatus string
		want           string
	}{
		{name: "renders a release installed by hand", rendered: map[string]any{"name": "by-hand"}, lsConfig: lsConfig,
			want: "deployed release " + ns + "/from-landscaper, the Installation now renders release " + ns + "/by-hand"},
		{name: "renders plain manifests", rendered: map[string]any{"name": "from-landscaper", "helmDeployment": false}, lsConfig: lsConfig,
			want: "deployed the chart as a Helm release, the Installation now renders it as plain manifests"},
		{name: "release without what Landscaper recorded", rendered: map[string]any{"name": "from-landscaper"}, lsConfig: lsConfig,
			providerStatus: cm("not-in-the-release"), want: "does not hold ConfigMap " + ns + "/not-in-the-release, which Landscaper recorded"},
		{name: "no configuration of Landscaper's", rendered: map[string]any{"name": "from-landscaper"},
			want: "has no readable Helm configuration"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			item := helmItem(t, "root/x", helmConfig(t, ns, rawChart(t, ch), tc.rendered))
			_, err := d.Adopt(ctx, item, deployer.Landscaped{DeployItem: "di-x", Config: tc.lsConfig, ProviderStatus: json.RawMessage(tc.providerStatus)})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Adopt: err = %v, want it refused (%q)", err, tc.want)
			}
		})
	}
	// What Landscaper recorded, in the release's namespace, is adopted.
	item := helmItem(t, "root/x", lsConfig)
	if _, err := d.Adopt(ctx, item, deployer.Landscaped{DeployItem: "di-x", Config: lsConfig, ProviderStatus: json.RawMessage(cm("from-landscaper"))}); err != nil {
		t.Fatalf("Adopt of Landscaper's release: %v", err)
	}
	if rel := releaseAt(t, storage, "by-hand"); rel.Version != byHand.Version || rel.Labels[deployer.OwnerLabel] != "" {
		t.Fatalf("the person's release changed: revision %d, labels %v", rel.Version, rel.Labels)
	}
}

// TestDelete_ReleaseLeftBehindIsAnError (issue 26): a release this item
// adopted (or deployed) that someone uninstalled and installed again by
// hand is not uninstalled — it is not the item's — and Delete says so
// instead of succeeding; a release the item never recorded a revision of
// is no error (TestRelease_NotOwnedIsRefused).
func TestDelete_ReleaseLeftBehindIsAnError(t *testing.T) {
	ns, ch, storage, d := ownershipFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cfg := helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "replaced", "values": map[string]any{"v": "ls"}})
	asLandscaper(t, storage, ns, "replaced", ch, "ls")
	item := adoptedItem(ctx, t, d, "root/replaced", cfg, cfg)
	if _, err := action.NewUninstall(storage).Run("replaced"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(10 * time.Millisecond) // a first deployment of its own, whatever the clock's resolution
	asLandscaper(t, storage, ns, "replaced", ch, "person")

	err := d.Delete(ctx, item, deployer.DeleteOptions{})
	if err == nil || !strings.Contains(err.Error(), "release "+ns+"/replaced, which deploy item \"root/replaced\" deployed or adopted (revision 1), was not uninstalled") ||
		!strings.Contains(err.Error(), "someone else installed") {
		t.Fatalf("Delete of a release installed again by hand: err = %v, want it reported as left behind", err)
	}
	if rel := releaseAt(t, storage, "replaced"); rel.Info.Status != release.StatusDeployed {
		t.Fatalf("the person's release was uninstalled (%s)", rel.Info.Status)
	}
	if _, err := d.Apply(ctx, item); err == nil || !strings.Contains(err.Error(), "is not the release deploy item") {
		t.Fatalf("Apply over the person's release: err = %v, want it refused", err)
	}
}
