package helm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// TestDrift_DeletedReleaseObject: an object deleted behind a release's back
// is reported as drift and recreated by the next Apply.
func TestDrift_DeletedReleaseObject(t *testing.T) {
	ns := localcluster.Namespace(t)
	d := helm.New(target.NewPool())
	item := helmItem(t, "drift", helmConfig(t, ns, rawChart(t, valuesChart(t, ns)), map[string]any{"name": "drifty", "values": map[string]any{"v": "1"}}))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	item.ProviderStatus = res.ProviderStatus
	c := newClusterReader(t)
	if err := c.c.CoreV1().ConfigMaps(ns).Delete(ctx, "drifty", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	report, err := d.Drift(ctx, item)
	if err != nil || !report.Drifted || !strings.Contains(report.Reason, "drifty") {
		t.Fatalf("Drift = %+v, %v; want drift naming the deleted ConfigMap", report, err)
	}
	if _, err := d.Apply(ctx, item); err != nil {
		t.Fatal(err)
	}
	if c.configMapData(t, ns, "drifty")["v"] != "1" {
		t.Fatal("Apply did not recreate the deleted object")
	}
}
