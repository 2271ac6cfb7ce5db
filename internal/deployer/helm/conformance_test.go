package helm_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

func TestMain(m *testing.M) { localcluster.Main(m) }

// testChart is a chart whose templates are exactly objects (JSON is YAML
// without template actions); CRDs go to crds/, as Helm requires for a CRD
// and its custom resources in one chart. Extra templates may be added.
func testChart(t testing.TB, objects []map[string]any, extraTemplates map[string]string) *chart.Chart {
	t.Helper()
	var docs, crds []string
	for _, o := range objects {
		b := deployertest.MustJSON(t, o)
		if o["kind"] == "CustomResourceDefinition" {
			crds = append(crds, string(b))
		} else {
			docs = append(docs, string(b))
		}
	}
	ch := &chart.Chart{
		Metadata:  &chart.Metadata{APIVersion: chart.APIVersionV2, Name: "conformance", Version: "0.1.0"},
		Templates: []*chart.File{{Name: "templates/objects.yaml", Data: []byte(strings.Join(docs, "\n---\n"))}},
		Values:    map[string]any{},
	}
	for name, data := range extraTemplates {
		ch.Templates = append(ch.Templates, &chart.File{Name: "templates/" + name, Data: []byte(data)})
	}
	if len(crds) > 0 {
		ch.Files = append(ch.Files, &chart.File{Name: "crds/crds.yaml", Data: []byte(strings.Join(crds, "\n---\n"))})
	}
	return ch
}

// archive packages ch as a .tgz.
func archive(t testing.TB, ch *chart.Chart) []byte {
	t.Helper()
	dir := t.TempDir()
	path, err := chartutil.Save(ch, dir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// helmConfig is a helm ProviderConfiguration for an inline chart archive.
func helmConfig(t testing.TB, namespace string, chartSource map[string]any, extra map[string]any) json.RawMessage {
	t.Helper()
	cfg := map[string]any{
		"apiVersion": "helm.deployer.landscaper.gardener.cloud/v1alpha1",
		"kind":       "ProviderConfiguration",
		"name":       "conformance",
		"namespace":  namespace,
		"chart":      chartSource,
	}
	for k, v := range extra {
		cfg[k] = v
	}
	return deployertest.MustJSON(t, cfg)
}

func rawChart(t testing.TB, ch *chart.Chart) map[string]any {
	return map[string]any{"archive": map[string]any{"raw": base64.StdEncoding.EncodeToString(archive(t, ch))}}
}

func harness(helmDeployment bool) deployertest.Harness {
	return deployertest.Harness{
		Type: helm.Type,
		New:  func(pool *target.Pool) deployer.Deployer { return helm.New(pool) },
		Config: func(t *testing.T, namespace string, objects []map[string]any) json.RawMessage {
			return helmConfig(t, namespace, rawChart(t, testChart(t, objects, nil)), map[string]any{"helmDeployment": helmDeployment})
		},
		Invalid:   json.RawMessage(`{"apiVersion":"helm.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderConfiguration","namespace":"x","chart":{"archive":{"raw":"bm90IGEgY2hhcnQ="}}}`),
		KeepsCRDs: helmDeployment,
	}
}

// TestConformance_HelmRelease: real Helm releases pass the conformance suite.
func TestConformance_HelmRelease(t *testing.T) { deployertest.Run(t, harness(true)) }

// TestConformance_HelmManifestMode: rendered charts (helmDeployment false)
// pass the conformance suite.
func TestConformance_HelmManifestMode(t *testing.T) { deployertest.Run(t, harness(false)) }
