package helm_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// serveLoopback serves handler on 127.0.0.1 (never on other interfaces).
func serveLoopback(t *testing.T, handler http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(handler)
	srv.Listener = l
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

// chartRepo serves an HTTP chart repository holding ch.
func chartRepo(t *testing.T, ch *chart.Chart, tgz []byte) string {
	t.Helper()
	index := repo.NewIndexFile()
	if err := index.MustAdd(ch.Metadata, "charts/conformance-0.1.0.tgz", "", "sha256:unchecked"); err != nil {
		t.Fatal(err)
	}
	indexYAML, err := yaml.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/repo/index.yaml", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(indexYAML) })
	mux.HandleFunc("/repo/charts/conformance-0.1.0.tgz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(tgz) })
	return serveLoopback(t, mux) + "/repo"
}

// chartDirFS lays ch out as a chart directory under charts/web.
func chartDirFS(t *testing.T, ch *chart.Chart) fstest.MapFS {
	t.Helper()
	meta, err := yaml.Marshal(ch.Metadata)
	if err != nil {
		t.Fatal(err)
	}
	files := fstest.MapFS{"charts/web/Chart.yaml": {Data: meta}}
	for _, f := range ch.Templates {
		files["charts/web/"+f.Name] = &fstest.MapFile{Data: f.Data}
	}
	return files
}

// TestApply_ChartSources: every chart source installs the same chart.
func TestApply_ChartSources(t *testing.T) {
	ns := localcluster.Namespace(t)
	ch := testChart(t, []map[string]any{{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "from-chart", "namespace": ns}, "data": map[string]any{"v": "1"}}}, nil)
	tgz := archive(t, ch)
	files := chartDirFS(t, ch)
	files["charts/web.tgz"] = &fstest.MapFile{Data: tgz}
	urlServer := serveLoopback(t, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(tgz) }))
	sources := []struct {
		name  string
		chart map[string]any
	}{
		{"LocalDirectory", map[string]any{"path": "charts/web"}},
		{"LocalArchive", map[string]any{"path": "./charts/web.tgz"}},
		{"RawArchive", rawChart(t, ch)},
		{"RemoteArchive", map[string]any{"archive": map[string]any{"remote": map[string]any{"url": urlServer + "/web.tgz"}}}},
		{"HelmChartRepo", map[string]any{"helmChartRepo": map[string]any{"helmChartRepoUrl": chartRepo(t, ch, tgz), "helmChartName": "conformance", "helmChartVersion": "0.1.0"}}},
		{"OCIRegistry", map[string]any{"ref": pushToRegistry(t, tgz)}},
	}
	for _, src := range sources {
		t.Run(src.name, func(t *testing.T) {
			d := helm.New(target.NewPool())
			item := deployer.Item{ID: "sources/" + src.name, Name: src.name, Type: helm.Type, Files: files,
				Target: deployertest.KubernetesTarget(t, localcluster.Kubeconfig(t)),
				Config: helmConfig(t, ns, src.chart, map[string]any{"name": "src-" + strings.ToLower(src.name)})}
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			res, err := d.Apply(ctx, item)
			if err != nil {
				t.Fatalf("Apply: %v", err)
			}
			item.ProviderStatus = res.ProviderStatus
			if err := d.Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
				t.Fatalf("Delete: %v", err)
			}
		})
	}
}
