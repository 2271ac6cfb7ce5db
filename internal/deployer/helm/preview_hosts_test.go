package helm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
)

// TestPreview_RemoteChartHosts proves a plan fetches a remote chart only
// from a host the item's last apply fetched from: a new item, or one whose
// chart moved to another host, is not previewed (ErrFetchedAtApply) and
// the host gets no request, whatever the blueprint rendered into the URL;
// a chart on the applied host (a version bump) is previewed.
func TestPreview_RemoteChartHosts(t *testing.T) {
	tgz := archive(t, previewChart(t))
	var requests atomic.Int32
	base := serveLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		_, _ = w.Write(tgz)
	}))
	config := func(url string) []byte {
		return helmConfig(t, "apps", map[string]any{"archive": map[string]any{"remote": map[string]any{"url": url}}}, nil)
	}
	for name, c := range map[string]struct {
		applied []byte
		fetch   bool
	}{
		"new item":          {nil, false},
		"moved host":        {config("https://charts.example.com/app-1.0.0.tgz"), false},
		"applied host":      {config(base + "/app-1.0.0.tgz"), true},
		"inline then url":   {helmConfig(t, "apps", rawChart(t, previewChart(t)), nil), false},
		"unparsable before": {[]byte("{"), false},
	} {
		t.Run(name, func(t *testing.T) {
			requests.Store(0)
			req := deployer.PreviewRequest{Item: deployer.Item{ID: "root/web", Name: "web", Type: helm.Type,
				Config: config(base + "/app-2.0.0.tgz?leak=s3cr3t")}, Applied: c.applied}
			p, err := helm.New(nil).Preview(context.Background(), req)
			if !c.fetch {
				if !errors.Is(err, deployer.ErrFetchedAtApply) || requests.Load() != 0 {
					t.Fatalf("want ErrFetchedAtApply and no request, got %v and %d requests", err, requests.Load())
				}
				if strings.Contains(err.Error(), "s3cr3t") {
					t.Errorf("the error shows the URL: %v", err)
				}
				return
			}
			if err != nil || len(p.Objects) == 0 || requests.Load() != 1 {
				t.Fatalf("want a preview from the applied host, got %v, %d objects, %d requests", err, len(p.Objects), requests.Load())
			}
		})
	}
}
