package provider

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// TestAccInstallation_ociChartTagAtPlan proves the plan-time rule for OCI
// charts (security.md, "Reach the network at plan") through the
// provider's own registry access: after an apply of tag 0.1.0, a plan of
// tag 0.2.0, which the repository's tag list names, previews the new
// chart; a plan of a tag the registry does not list, or of another
// repository on the same registry, is not previewed.
func TestAccInstallation_ociChartTagAtPlan(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	reg := ociregistry.Start(t, ociregistry.Options{})
	push := func(repository, version, build string) {
		t.Helper()
		tgz := pinnedChart(t, build)
		if _, err := componenttest.PushArtifact(context.Background(), componenttest.Remote("", ""), reg.Host()+repository+":"+version,
			componenttest.Layer{MediaType: "application/vnd.cncf.helm.config.v1+json", Data: []byte(`{"name":"pinned","version":"0.1.0"}`)},
			componenttest.Layer{MediaType: mediaTypeHelmChart, Data: tgz}); err != nil {
			t.Fatal(err)
		}
	}
	push("/charts/bump", "0.1.0", "first")
	push("/charts/bump", "0.2.0", "second")
	push("/other/bump", "0.1.0", "other")
	config := func(ref string) string {
		return inlineInstallation(e.targetHCL, "tags", e.namespace, fmt.Sprintf(`- name: bump
  type: landscaper.gardener.cloud/helm
  target: {import: cluster}
  config:
    apiVersion: helm.deployer.landscaper.gardener.cloud/v1alpha1
    kind: ProviderConfiguration
    name: bump
    namespace: %s
    chart: {ref: %q}
    values: {name: bump, greeting: hello}
`, e.namespace, reg.Host()+ref))
	}
	w := newCLIWorkspace(t, config("/charts/bump:0.1.0"))
	w.mustRun("apply", "-input=false", "-auto-approve")
	if err := e.configMapData("bump", map[string]string{"greeting": "hello", "build": "first"})(nil); err != nil {
		t.Fatal(err)
	}
	w.write(config("/charts/bump:0.2.0"))
	if out := w.mustRun("plan", "-input=false", "-no-color"); !strings.Contains(out, "build: second") {
		t.Fatalf("the plan of a listed tag does not preview it:\n%s", out)
	}
	// Applied, so that the state shows objects, not the create's note.
	w.mustRun("apply", "-input=false", "-auto-approve")
	for _, ref := range []string{"/charts/bump:0.3.0-s3cr3t", "/other/bump:0.1.0"} {
		w.write(config(ref))
		out := w.mustRun("plan", "-input=false", "-no-color")
		if !strings.Contains(out, "no preview: the chart is fetched at apply, not at plan") || strings.Contains(out, "build: other") {
			t.Errorf("the plan of %s was previewed:\n%s", ref, out)
		}
	}
	w.write(config("/charts/bump:0.2.0"))
	w.mustRun("destroy", "-input=false", "-auto-approve")
}
