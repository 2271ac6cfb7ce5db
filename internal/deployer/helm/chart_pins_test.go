package helm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// TestChartPins proves a chart re-pushed under the same version is caught:
// Resolve pins the digest the repository (or archive URL) serves, a
// preview with that pin renders it and returns the same pin, and once the
// source serves other content the pinned preview fails with a
// PinMovedError naming the item, the source and both digests (terminal,
// not retried), while an unpinned preview shows the new content.
func TestChartPins(t *testing.T) {
	first := previewChart(t)
	second := previewChart(t)
	second.Values = map[string]any{"greeting": "re-pushed"}
	second.Raw = []*chart.File{{Name: "values.yaml", Data: []byte("greeting: re-pushed\n")}}
	var served atomic.Pointer[[]byte]
	tgz := archive(t, first)
	served.Store(&tgz)
	index := repo.NewIndexFile()
	if err := index.MustAdd(&chart.Metadata{APIVersion: chart.APIVersionV2, Name: first.Metadata.Name, Version: first.Metadata.Version},
		"web.tgz", "", "sha256:unchecked"); err != nil {
		t.Fatal(err)
	}
	indexYAML, err := yaml.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	base := serveLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "index.yaml") {
			_, _ = w.Write(indexYAML)
			return
		}
		_, _ = w.Write(*served.Load())
	}))
	for name, source := range map[string]map[string]any{
		"chart repository": {"helmChartRepo": map[string]any{"helmChartRepoUrl": base + "/repo",
			"helmChartName": first.Metadata.Name, "helmChartVersion": first.Metadata.Version}},
		"archive URL": {"archive": map[string]any{"remote": map[string]any{"url": base + "/web.tgz"}}},
	} {
		t.Run(name, func(t *testing.T) {
			tgz := archive(t, first)
			served.Store(&tgz)
			d := helm.New(nil)
			cfg := helmConfig(t, "apps", source, nil)
			item := deployer.Item{ID: "root/web", Name: "web", Type: helm.Type, Config: cfg}
			ctx := context.Background()
			pins, err := d.Resolve(ctx, item)
			if err != nil || len(pins) != 1 {
				t.Fatalf("Resolve: %v, %v", pins, err)
			}
			req := deployer.PreviewRequest{Item: item, Applied: cfg, Pins: pins}
			pv, err := d.Preview(ctx, req)
			if err != nil || !equalPins(pv.Pins, pins) {
				t.Fatalf("pinned preview of the unchanged source: %v, pins %v (want %v)", err, pv.Pins, pins)
			}
			moved := archive(t, second)
			served.Store(&moved)
			_, moveErr := d.Preview(ctx, req)
			var pm *deployer.PinMovedError
			if !errors.As(moveErr, &pm) || !failure.IsTerminal(moveErr) {
				t.Fatalf("pinned preview of a re-pushed chart: want a terminal PinMovedError, got %v", moveErr)
			}
			now, err := d.Resolve(ctx, item)
			if err != nil {
				t.Fatal(err)
			}
			for source, digest := range pins {
				if pm.Source != source || pm.Pinned != digest || pm.Served != now[source] || pm.Served == pm.Pinned || pm.Item != "root/web" {
					t.Errorf("error %+v does not name the item, the source %q and both digests (%s, %s)", pm, source, digest, now[source])
				}
			}
			if msg := moveErr.Error(); !strings.Contains(msg, "plan again") {
				t.Errorf("the error does not say to plan again: %s", msg)
			}
			req.Pins = nil
			if pv, err = d.Preview(ctx, req); err != nil || !strings.Contains(configGreeting(t, pv), "re-pushed") {
				t.Fatalf("unpinned preview does not show the new content: %v", err)
			}
		})
	}
}

func equalPins(a, b deployer.Pins) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// configGreeting is the greeting of the previewed ConfigMap.
func configGreeting(t *testing.T, pv deployer.Preview) string {
	t.Helper()
	for _, o := range pv.Objects {
		if o.Object["kind"] == "ConfigMap" {
			data, _ := o.Object["data"].(map[string]any)
			s, _ := data["greeting"].(string)
			return s
		}
	}
	return ""
}
