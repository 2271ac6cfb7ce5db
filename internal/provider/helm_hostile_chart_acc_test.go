package provider

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
)

// hostileChartArchive is a chart whose one template is tmpl, packaged.
func hostileChartArchive(t *testing.T, tmpl string) string {
	t.Helper()
	ch := &chart.Chart{
		Metadata:  &chart.Metadata{APIVersion: chart.APIVersionV2, Name: "hostile", Version: "0.1.0"},
		Templates: []*chart.File{{Name: "templates/hostile.yaml", Data: []byte(tmpl)}},
		Values:    map[string]any{},
	}
	path, err := chartutil.Save(ch, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Clean(path))
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// Issue 32 (9, 10): a blueprint's own chart (an inline archive) rendered
// at plan for deploy_item_objects is stopped by render_limits: one that
// builds a 1 GiB string by max_memory_mib, one of 10^10 loop iterations by
// timeout; each plan names the limit (the item is not previewed), within
// the limit and a little. Before, the first took about 2 GiB of the plan's memory and the
// second never returned.
func TestAccInstallation_hostileChartAtPlan(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	provider := `
provider "landscaper" {
  render_limits = { timeout = "5s", max_memory_mib = 128 }
}
`
	for _, tc := range []struct{ name, template, setting string }{
		{"memory", `{{- $s := "0123456789abcdef" }}
{{- range until 26 }}{{ $s = printf "%s%s" $s $s }}{{ end }}
apiVersion: v1
kind: ConfigMap
metadata: {name: big}
data: {size: "{{ len $s }}"}
`, "max_memory_mib"},
		{"time", `{{ range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}`, "timeout"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			items := fmt.Sprintf(`- name: hostile
  type: landscaper.gardener.cloud/helm
  target: {import: cluster}
  config:
    apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
    kind: ProviderConfiguration
    name: hostile
    namespace: %s
    chart: {archive: {raw: %q}}
`, e.namespace, hostileChartArchive(t, tc.template))
			w := newCLIWorkspace(t, provider+inlineInstallation(e.targetHCL, "hostile", e.namespace, items))
			start := time.Now()
			out, _ := w.run("plan", "-input=false", "-no-color") // a preview that fails is a warning, the item not previewed
			took := time.Since(start)
			if !strings.Contains(strings.Join(strings.Fields(out), " "), "render_limits."+tc.setting) {
				t.Fatalf("the plan does not name render_limits.%s:\n%s", tc.setting, out)
			}
			if took > 2*time.Minute {
				t.Errorf("the plan took %s", took)
			}
		})
	}
}
