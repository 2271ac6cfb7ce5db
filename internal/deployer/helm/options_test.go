package helm_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// schemaChart is valuesChart with a values.schema.json that wants v to be
// an integer.
func schemaChart(t *testing.T, ns string) *chart.Chart {
	ch := valuesChart(t, ns)
	ch.Schema = []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"v":{"type":"integer"}}}`)
	return ch
}

func deployOptions(install, upgrade map[string]any) map[string]any {
	return map[string]any{"install": install, "upgrade": upgrade}
}

// TestApply_TakeOwnership: an install over an object that exists without
// Helm's annotations fails, as Helm's does; with install.takeOwnership
// (Landscaper v0.144) the release adopts it and the chart's content wins.
func TestApply_TakeOwnership(t *testing.T) {
	ns := localcluster.Namespace(t)
	cluster := newClusterReader(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	existing := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "taken", Namespace: ns}, Data: map[string]string{"v": "before"}}
	if _, err := cluster.c.CoreV1().ConfigMaps(ns).Create(ctx, existing, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	d := helm.New(target.NewPool())
	ch := valuesChart(t, ns)
	plain := helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "taken", "values": map[string]any{"v": "chart"}})
	if _, err := d.Apply(ctx, helmItem(t, "own-refused", plain)); err == nil || !strings.Contains(err.Error(), "exists and cannot be imported") {
		t.Fatalf("install over an unannotated object: %v, want Helm's refusal", err)
	}
	taking := helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "taken", "values": map[string]any{"v": "chart"},
		"helmDeploymentConfig": deployOptions(map[string]any{"takeOwnership": true}, nil)})
	if _, err := d.Apply(ctx, helmItem(t, "own-taken", taking)); err != nil {
		t.Fatalf("install with takeOwnership: %v", err)
	}
	cm, err := cluster.c.CoreV1().ConfigMaps(ns).Get(ctx, "taken", metav1GetOptions)
	if err != nil {
		t.Fatal(err)
	}
	if cm.Data["v"] != "chart" || cm.Annotations["meta.helm.sh/release-name"] != "taken" {
		t.Fatalf("adopted ConfigMap: data %v, annotations %v; want the chart's data and the release's annotation", cm.Data, cm.Annotations)
	}
}

// TestApply_SkipSchemaValidation: values the chart's schema rejects fail
// an install and an upgrade, unless that action's skipSchemaValidation
// (Landscaper v0.141) is set.
func TestApply_SkipSchemaValidation(t *testing.T) {
	ns := localcluster.Namespace(t)
	d := helm.New(target.NewPool())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	ch := schemaChart(t, ns)
	cfg := func(v any, install, upgrade map[string]any) []byte {
		return helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "schema", "values": map[string]any{"v": v},
			"helmDeploymentConfig": deployOptions(install, upgrade)})
	}
	item := helmItem(t, "schema", cfg("text", nil, nil))
	if _, err := d.Apply(ctx, item); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Fatalf("install with values the schema rejects: %v, want a schema error", err)
	}
	item.Config = cfg("text", map[string]any{"skipSchemaValidation": true}, nil)
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatalf("install with install.skipSchemaValidation: %v", err)
	}
	item.ProviderStatus = res.ProviderStatus
	// The install's setting does not reach the upgrade.
	item.Config = cfg("other", map[string]any{"skipSchemaValidation": true}, nil)
	if _, err := d.Apply(ctx, item); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Fatalf("upgrade with only install.skipSchemaValidation: %v, want a schema error", err)
	}
	item.Config = cfg("other", nil, map[string]any{"skipSchemaValidation": true})
	if _, err := d.Apply(ctx, item); err != nil {
		t.Fatalf("upgrade with upgrade.skipSchemaValidation: %v", err)
	}
	if got := newClusterReader(t).configMapData(t, ns, "schema")["v"]; got != "other" {
		t.Fatalf("ConfigMap v = %q after the upgrade, want other", got)
	}
}

// TestApply_HistoryKeepsTenRevisions: upgrades keep ten revisions of a
// release, as Landscaper's Helm deployer does (its MaxHistory), so a
// release taken over from Landscaper keeps its rollback revisions.
func TestApply_HistoryKeepsTenRevisions(t *testing.T) {
	ns := localcluster.Namespace(t)
	d := helm.New(target.NewPool())
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ch := valuesChart(t, ns)
	item := helmItem(t, "history", nil)
	for i := 1; i <= 12; i++ {
		item.Config = helmConfig(t, ns, rawChart(t, ch), map[string]any{"name": "history", "values": map[string]any{"v": fmt.Sprint(i)}})
		res, err := d.Apply(ctx, item)
		if err != nil {
			t.Fatalf("apply %d: %v", i, err)
		}
		item.ProviderStatus = res.ProviderStatus
	}
	history, err := helmStorage(t, ns).Releases.History("history")
	if err != nil {
		t.Fatal(err)
	}
	if len(history) != 10 {
		t.Fatalf("%d revisions kept after 12 deployments, want 10", len(history))
	}
}

// TestApply_UpgradeTakeOwnership: an upgrade whose chart now holds an
// object that exists without the release's annotations fails, unless
// upgrade.takeOwnership is set; install.takeOwnership does not reach it.
func TestApply_UpgradeTakeOwnership(t *testing.T) {
	ns := localcluster.Namespace(t)
	cluster := newClusterReader(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	d := helm.New(target.NewPool())
	first := valuesChart(t, ns)
	item := helmItem(t, "upgrade-own", helmConfig(t, ns, rawChart(t, first), map[string]any{"name": "upgrade-own", "values": map[string]any{"v": "1"}}))
	res, err := d.Apply(ctx, item)
	if err != nil {
		t.Fatal(err)
	}
	item.ProviderStatus = res.ProviderStatus
	if _, err := cluster.c.CoreV1().ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "later", Namespace: ns}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	second := valuesChart(t, ns) // the same chart, and now also the ConfigMap "later"
	second.Templates = append(second.Templates, &chart.File{Name: "templates/later.yaml",
		Data: []byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: later, namespace: " + ns + "}\ndata: {v: chart}\n")})
	upgrade := func(options map[string]any) error {
		item.Config = helmConfig(t, ns, rawChart(t, second), map[string]any{"name": "upgrade-own", "values": map[string]any{"v": "2"}, "helmDeploymentConfig": options})
		res, err := d.Apply(ctx, item)
		if err == nil {
			item.ProviderStatus = res.ProviderStatus
		}
		return err
	}
	if err := upgrade(deployOptions(map[string]any{"takeOwnership": true}, nil)); err == nil || !strings.Contains(err.Error(), "exists and cannot be imported") {
		t.Fatalf("upgrade over an unannotated object with only install.takeOwnership: %v, want Helm's refusal", err)
	}
	if err := upgrade(deployOptions(nil, map[string]any{"takeOwnership": true})); err != nil {
		t.Fatalf("upgrade with upgrade.takeOwnership: %v", err)
	}
	if got := cluster.configMapData(t, ns, "later")["v"]; got != "chart" {
		t.Fatalf("adopted ConfigMap v = %q, want chart", got)
	}
}
