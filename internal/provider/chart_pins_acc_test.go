package provider

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/repo"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// pinnedChart is a chart archive of version 0.1.0 whose ConfigMap says
// which build of the chart made it: two builds are the same version
// pushed twice with other content.
func pinnedChart(t *testing.T, build string) []byte {
	t.Helper()
	data, err := componenttest.TarGz(map[string]string{
		"pinned/Chart.yaml": "apiVersion: v2\nname: pinned\nversion: 0.1.0\n",
		"pinned/templates/cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ .Values.name }}
data:
  greeting: {{ .Values.greeting | quote }}
  build: ` + build + "\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestAccInstallation_chartRepushedAfterPlan proves the apply deploys what
// the plan showed: a plan saved with -out previews a chart of a chart
// repository and of an OCI registry; then both sources serve other
// content under the same version (the OCI tag moves). Applying the saved
// plan fails before anything is deployed, with the provider's error naming
// the item, the source and both digests and saying to plan again — not
// Terraform's "Provider produced inconsistent final plan" — and the
// cluster keeps the first build. A new plan shows the new build and its
// apply deploys it.
func TestAccInstallation_chartRepushedAfterPlan(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	var served atomic.Pointer[[]byte]
	first := pinnedChart(t, "one")
	served.Store(&first)
	index := repo.NewIndexFile()
	if err := index.MustAdd(&chart.Metadata{APIVersion: chart.APIVersionV2, Name: "pinned", Version: "0.1.0"}, "pinned-0.1.0.tgz", "", "sha256:unchecked"); err != nil {
		t.Fatal(err)
	}
	indexYAML, err := yaml.Marshal(index)
	if err != nil {
		t.Fatal(err)
	}
	repoURL := serveLoopbackHTTP(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/index.yaml") {
			_, _ = w.Write(indexYAML)
			return
		}
		_, _ = w.Write(*served.Load())
	})) + "/repo"
	reg := ociregistry.Start(t, ociregistry.Options{})
	ref := reg.Host() + "/charts/pinned:0.1.0"
	push := func(tgz []byte) {
		t.Helper()
		if _, err := componenttest.PushArtifact(context.Background(), componenttest.Remote("", ""), ref,
			componenttest.Layer{MediaType: "application/vnd.cncf.helm.config.v1+json", Data: []byte(`{"name":"pinned","version":"0.1.0"}`)},
			componenttest.Layer{MediaType: mediaTypeHelmChart, Data: tgz}); err != nil {
			t.Fatal(err)
		}
	}
	push(first)
	item := func(name, source, greeting string) string {
		return fmt.Sprintf(`- name: %[1]s
  type: landscaper.gardener.cloud/helm
  target: {import: cluster}
  config:
    apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
    kind: ProviderConfiguration
    name: %[1]s
    namespace: %[2]s
    chart: %[3]s
    values: {name: %[1]s, greeting: %[4]s}
`, name, e.namespace, source, greeting)
	}
	config := func(greeting string) string {
		return inlineInstallation(e.targetHCL, "pins", e.namespace,
			item("from-repo", fmt.Sprintf("{helmChartRepo: {helmChartRepoUrl: %q, helmChartName: pinned, helmChartVersion: 0.1.0}}", repoURL), greeting)+
				item("from-oci", fmt.Sprintf("{ref: %q}", ref), greeting))
	}
	both := func(greeting, build string) {
		t.Helper()
		for _, name := range []string{"from-repo", "from-oci"} {
			if err := e.configMapData(name, map[string]string{"greeting": greeting, "build": build})(nil); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
	}
	w := newCLIWorkspace(t, config("hello"))
	w.mustRun("apply", "-input=false", "-auto-approve")
	both("hello", "one")

	w.write(config("hi"))
	if out := w.mustRun("plan", "-input=false", "-no-color", "-out=tfplan"); !strings.Contains(out, "greeting: hi") || !strings.Contains(out, "build: one") {
		t.Fatalf("the saved plan does not preview the charts:\n%s", out)
	}
	second := pinnedChart(t, "two")
	served.Store(&second)
	push(second)
	out, err := w.run("apply", "-input=false", "-no-color", "tfplan")
	if err == nil {
		t.Fatalf("the saved plan applied although both charts moved:\n%s", out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if strings.Contains(flat, "inconsistent final plan") {
		t.Fatalf("Terraform reported the moved charts as a provider bug:\n%s", out)
	}
	for _, want := range []string{"Deploy Item Source Moved", "chart repository " + repoURL + " (chart pinned version 0.1.0)", "OCI chart " + ref,
		"pins/from-repo", "pins/from-oci", "plan again"} {
		if !strings.Contains(flat, want) {
			t.Errorf("the error does not say %q:\n%s", want, out)
		}
	}
	if strings.Count(flat, "sha256:") < 4 {
		t.Errorf("the errors do not give both digests of both charts:\n%s", out)
	}
	both("hello", "one")

	if out := w.mustRun("plan", "-input=false", "-no-color"); !strings.Contains(out, "build: two") {
		t.Fatalf("the new plan does not preview the re-pushed charts:\n%s", out)
	}
	w.mustRun("apply", "-input=false", "-auto-approve")
	both("hi", "two")
	w.mustRun("destroy", "-input=false", "-auto-approve")
}

// TestAccInstallation_componentMovedAfterPlan proves the apply reads the
// component version the plan read: a plan saved with -out of a change
// (new import data) reads example.com/app:1.0.0; then the tag moves to
// other content. Applying the saved plan succeeds — before, Terraform
// stopped with "Provider produced inconsistent final plan" on
// component_digests — and the state records the digest the plan showed;
// the next plan shows the moved tag as a change.
func TestAccInstallation_componentMovedAfterPlan(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	reg := ociregistry.Start(t, ociregistry.Options{User: "ci", Password: "s3cret"})
	l := &ociLandscape{t: t, host: reg.Host(), push: componenttest.Remote("ci", "s3cret")}
	l.pushAll("first")
	config := func(extra string) string {
		return providerRegistryHCL(t.TempDir(), reg.Host(), "ci", "s3cret") + e.componentInstallationHCL(l, "1.0.0", "blueprint", extra) + `
output "app_digest" { value = landscaper_installation.app.component_digests["example.com/app:1.0.0"] }
`
	}
	w := newCLIWorkspace(t, config(""))
	w.mustRun("apply", "-input=false", "-auto-approve")
	planned := l.appDigest
	w.write(config(", helmDeployment = false"))
	w.mustRun("plan", "-input=false", "-no-color", "-out=tfplan")
	l.pushAll("second")
	if planned == l.appDigest {
		t.Fatal("the second push did not move the tag")
	}
	w.mustRun("apply", "-input=false", "-no-color", "tfplan")
	if got := strings.TrimSpace(w.mustRun("output", "-raw", "app_digest")); got != planned {
		t.Errorf("the apply read example.com/app:1.0.0 at %s, not at the %s the plan showed", got, planned)
	}
	if out := w.mustRun("plan", "-input=false", "-no-color"); !strings.Contains(out, l.appDigest) {
		t.Errorf("the next plan does not show the moved tag's digest %s:\n%s", l.appDigest, out)
	}
	w.mustRun("destroy", "-input=false", "-auto-approve")
}
