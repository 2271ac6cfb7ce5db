package helm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/release"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// TestAdopt_LandscaperRelease: a release Landscaper's Helm deployer
// installed (no labels) is adopted without a write (its storage Secret
// keeps its resourceVersion), drift finds nothing, a release of another
// deploy item is refused, and Delete uninstalls the adopted release.
func TestAdopt_LandscaperRelease(t *testing.T) {
	ns, ch, storage, d := ownershipFixture(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	install := action.NewInstall(storage)
	install.ReleaseName, install.Namespace = "from-landscaper", ns
	if _, err := install.Run(ch, map[string]any{"v": "ls"}); err != nil {
		t.Fatal(err)
	}
	item := helmItem(t, "root/helm", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "from-landscaper", "values": map[string]any{"v": "ls"}}))
	secrets := newClusterReader(t).c.CoreV1().Secrets(ns)
	storageVersion := func() string {
		t.Helper()
		s, err := secrets.Get(ctx, "sh.helm.release.v1.from-landscaper.v1", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return s.ResourceVersion
	}
	before := storageVersion()

	status, err := d.Adopt(ctx, item, deployer.Landscaped{DeployItem: "di-helm", ProviderStatus: []byte(`{"managedResources":[]}`), Config: item.Config})
	if err != nil {
		t.Fatalf("Adopt: %v", err)
	}
	if !strings.Contains(string(status), `"release":{"name":"from-landscaper","namespace":"`+ns+`","revision":1,"firstDeployed":"`) {
		t.Fatalf("adopted status %s does not record revision 1 of the release", status)
	}
	item.ProviderStatus = status
	if report, err := d.Drift(ctx, item); err != nil || report.Drifted {
		t.Fatalf("Drift after Adopt = %+v, %v; want nothing drifted", report, err)
	}
	if after := storageVersion(); after != before {
		t.Fatalf("the release's storage Secret was written (resourceVersion %s, was %s)", after, before)
	}

	if _, err := d.Apply(ctx, helmItem(t, "root/other", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "other-item"}))); err != nil {
		t.Fatal(err)
	}
	other := helmItem(t, "root/third", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "other-item"}))
	if _, err := d.Adopt(ctx, other, deployer.Landscaped{DeployItem: "di-x", Config: other.Config}); err == nil || !strings.Contains(err.Error(), "belongs to another deploy item") {
		t.Errorf("Adopt of another item's release: err = %v, want it refused", err)
	}
	missing := helmItem(t, "root/missing", helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "never-installed"}))
	if _, err := d.Adopt(ctx, missing, deployer.Landscaped{DeployItem: "di-y", Config: missing.Config}); err == nil || !strings.Contains(err.Error(), "release "+ns+"/never-installed, which Landscaper's DeployItem di-y installed, does not exist") {
		t.Errorf("Adopt of a missing release: err = %v", err)
	}

	if err := helm.New(target.NewPool()).Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if rel, err := storage.Releases.Last("from-landscaper"); err == nil && rel.Info.Status != release.StatusUninstalled {
		t.Fatalf("release still %s after Delete", rel.Info.Status)
	}
}
