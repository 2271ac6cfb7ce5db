package helm_test

import (
	"context"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/action"
	"helm.sh/helm/v3/pkg/chart"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

func twoReplicaChart(t testing.TB, ns string) *chart.Chart {
	labels := map[string]any{"app": "web"}
	return testChart(t, []map[string]any{{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": ns},
		"spec": map[string]any{"replicas": 2, "selector": map[string]any{"matchLabels": labels},
			"template": map[string]any{"metadata": map[string]any{"labels": labels},
				"spec": map[string]any{"containers": []any{map[string]any{"name": "web", "image": "example.invalid/web:1"}}}}},
	}}, nil)
}

// TestApply_HelmReleaseWaitsForReadiness: Apply of a real release returns
// once kwok has made both replicas available, and Delete waits until the
// Deployment is gone.
func TestApply_HelmReleaseWaitsForReadiness(t *testing.T) {
	ns := localcluster.Namespace(t)
	d := helm.New(target.NewPool())
	item := helmItem(t, "ready", helmConfig(t, ns, rawChart(t, twoReplicaChart(t, ns)), map[string]any{"name": "web"}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	started := time.Now()
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("install + ready of a 2-replica Deployment: %s", time.Since(started).Round(time.Millisecond))
	dep, err := newClusterReader(t).c.AppsV1().Deployments(ns).Get(ctx, "web", metav1GetOptions)
	if err != nil || dep.Status.AvailableReplicas != 2 {
		t.Fatalf("Deployment after Apply: %v available, err %v; want 2", dep.Status.AvailableReplicas, err)
	}
	item.ProviderStatus = res.ProviderStatus
	if err := d.Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := newClusterReader(t).c.AppsV1().Deployments(ns).Get(ctx, "web", metav1GetOptions); err == nil {
		t.Fatal("Deployment still exists after Delete returned")
	}
}

// BenchmarkHelmInstallReady: Apply (install, then readiness) of a chart
// with a 2-replica Deployment; uninstall is not timed.
func BenchmarkHelmInstallReady(b *testing.B) {
	ns := localcluster.Namespace(b)
	d := helm.New(target.NewPool())
	item := helmItem(b, "bench", helmConfig(b, ns, rawChart(b, twoReplicaChart(b, ns)), map[string]any{"name": "web"}))
	for b.Loop() {
		res, err := d.Apply(context.Background(), item)
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		gone := item
		gone.ProviderStatus = res.ProviderStatus
		if err := d.Delete(context.Background(), gone, deployer.DeleteOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}

// BenchmarkHelmSDKInstallOnly is the baseline: the Helm SDK's install of
// the same chart without waiting; uninstall is not timed.
func BenchmarkHelmSDKInstallOnly(b *testing.B) {
	ns := localcluster.Namespace(b)
	ch := twoReplicaChart(b, ns)
	cfg := helmStorage(b, ns)
	for b.Loop() {
		install := action.NewInstall(cfg)
		install.ReleaseName, install.Namespace = "web", ns
		if _, err := install.Run(ch, map[string]any{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		uninstall := action.NewUninstall(cfg)
		uninstall.Wait, uninstall.Timeout = true, time.Minute
		if _, err := uninstall.Run("web"); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
