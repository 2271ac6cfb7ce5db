package landscaperrecording

import (
	"bytes"
	"encoding/base64"
	"io"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"
	"helm.sh/helm/v3/pkg/registry"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

const testKubeconfig = "apiVersion: v1\nkind: Config\nclusters: []\n"

// The harbor landscape builds: every placeholder filled, every root
// Installation with its blueprint inline, charts that Helm loads and
// renders, the same bytes on every build.
func TestBuildLandscape_Harbor(t *testing.T) {
	opts := LandscapeOptions{Kubeconfig: testKubeconfig, Registry: "127.0.0.1:5999"}
	l, err := BuildLandscape("harbor", opts)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, inst := range l.Installations {
		names = append(names, inst.GetName())
		fs, found, _ := unstructured.NestedMap(inst.Object, "spec", "blueprint", "inline", "filesystem")
		if !found || fs["blueprint.yaml"] == nil {
			t.Errorf("%s: no inline blueprint.yaml: %v", inst.GetName(), fs)
		}
	}
	if got := strings.Join(names, ","); got != "canary,catalog,metrics,orders,storefront" {
		t.Errorf("installations %s", got)
	}
	all, err := yaml.Marshal(append(l.Objects, l.Installations...))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(all), "${") {
		t.Error("a placeholder is left")
	}
	if !strings.Contains(string(all), "127.0.0.1:5999") || !strings.Contains(string(all), base64.StdEncoding.EncodeToString(l.Charts["harbor-api"])) {
		t.Error("registry or inline chart missing")
	}
	for _, o := range l.Objects {
		if o.GetKind() == "Target" && o.GetName() == "apps-inline" {
			if k, _, _ := unstructured.NestedString(o.Object, "spec", "config", "kubeconfig"); k != testKubeconfig {
				t.Errorf("apps-inline kubeconfig %q", k)
			}
		}
	}
	for name, archive := range l.Charts {
		ch, err := loader.LoadArchive(bytes.NewReader(archive))
		if err != nil {
			t.Fatalf("chart %s: %v", name, err)
		}
		vals, err := chartutil.ToRenderValues(ch, nil, chartutil.ReleaseOptions{Name: "r", Namespace: "ns", IsInstall: true}, chartutil.DefaultCapabilities)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.Render(ch, vals); err != nil {
			t.Errorf("chart %s does not render: %v", name, err)
		}
	}
	again, err := BuildLandscape("harbor", opts)
	if err != nil {
		t.Fatal(err)
	}
	for name := range l.Charts {
		if !bytes.Equal(l.Charts[name], again.Charts[name]) {
			t.Errorf("chart %s packs differently the second time", name)
		}
	}
}

// PushCharts puts the landscape's registry charts where its Installations
// pull them from, byte for byte.
func TestPushCharts_ToARegistry(t *testing.T) {
	reg := ociregistry.Start(t, ociregistry.Options{})
	l, err := BuildLandscape("harbor", LandscapeOptions{Kubeconfig: testKubeconfig, Registry: reg.Host()})
	if err != nil {
		t.Fatal(err)
	}
	refs, err := l.PushCharts(reg.Host())
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 1 || refs[0] != reg.Host()+"/charts/harbor-metrics:0.2.0" {
		t.Fatalf("pushed %v", refs)
	}
	client, err := registry.NewClient(registry.ClientOptPlainHTTP(), registry.ClientOptWriter(io.Discard))
	if err != nil {
		t.Fatal(err)
	}
	pulled, err := client.Pull(refs[0])
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(pulled.Chart.Data, l.Charts["harbor-metrics"]) {
		t.Error("the registry holds other bytes than the packaged chart")
	}
}
