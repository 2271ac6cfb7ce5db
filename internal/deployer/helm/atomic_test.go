package helm_test

import (
	"context"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/release"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestApply_AtomicInstallRollsBack: with install.atomic, a release that
// does not become ready within install.timeout is removed again, the
// error is returned, and the next Apply can install it afresh.
func TestApply_AtomicInstallRollsBack(t *testing.T) {
	ns := localcluster.Namespace(t)
	labels := map[string]any{"app": "stuck"}
	stuck := testChart(t, []map[string]any{{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "stuck", "namespace": ns},
		"spec": map[string]any{"replicas": 1, "selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"nodeSelector": map[string]any{"nowhere": "true"}, "containers": []any{map[string]any{"name": "c", "image": "x"}}}}},
	}}, nil)
	cfg := helmConfig(t, ns, rawChart(t, stuck), map[string]any{"name": "atomic",
		"helmDeploymentConfig": map[string]any{"install": map[string]any{"atomic": true, "timeout": "2s"}}})
	d := helm.New(target.NewPool())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	item := helmItem(t, "atomic", cfg)
	res, err := d.Apply(ctx, item)
	if err == nil {
		t.Fatal("an atomic install that never becomes ready succeeded")
	}
	if last, err := helmStorage(t, ns).Releases.Last("atomic"); err == nil && last.Info.Status != release.StatusUninstalled {
		t.Fatalf("after a failed atomic install the release is %s, want it gone", last.Info.Status)
	}
	item.ProviderStatus = res.ProviderStatus
	if err := d.Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
		t.Fatalf("Delete after a failed atomic install: %v", err)
	}
}
