package hostaccess

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// TestComponentAccess_Charts proves each way a Helm deploy item names a
// chart of a component reads the pushed chart: a resource key of a
// component an installation resolved, fromResource by reference and
// inline, and an OCI chart reference.
func TestComponentAccess_Charts(t *testing.T) {
	ctx := context.Background()
	mem := componenttest.Memory{}
	rc := component.RepositorySpec{Type: "ociRegistry", BaseURL: "registry.test/base"}
	chart := []byte("chart archive bytes")
	if _, err := componenttest.PushArtifact(ctx, mem.Open, "registry.test/charts/app:1.0.0",
		componenttest.Layer{MediaType: "application/vnd.cncf.helm.config.v1+json", Data: []byte("{}")},
		componenttest.Layer{MediaType: "application/vnd.cncf.helm.chart.content.v1.tar+gzip", Data: chart}); err != nil {
		t.Fatal(err)
	}
	descriptor := fmt.Sprintf(`
meta: {schemaVersion: v2}
component:
  name: example.com/app
  version: 1.0.0
  provider: internal
  repositoryContexts: []
  sources: []
  componentReferences: []
  resources:
  - {name: chart, version: 1.0.0, type: helmChart, relation: local,
     access: {type: localBlob, localReference: %q, mediaType: application/vnd.cncf.helm.chart.content.v1.tar+gzip}}
  - {name: remote-chart, version: 1.0.0, type: helmChart, relation: external,
     access: {type: ociArtifact, imageReference: registry.test/charts/app:1.0.0}}
`, componenttest.Digest(chart))
	if _, err := componenttest.PushVersion(ctx, mem.Open, rc, "example.com/app", "1.0.0", componenttest.Version{
		Descriptor: descriptor,
		Blobs:      []componenttest.Layer{{MediaType: "application/vnd.cncf.helm.chart.content.v1.tar+gzip", Data: chart}},
	}); err != nil {
		t.Fatal(err)
	}
	a := &ComponentAccess{Registry: &component.Registry{Client: ocireg.New(ocireg.Options{Repository: mem.Read})}}

	resolved, err := a.Registry.Load(ctx, component.VersionRef{Context: rc, Name: "example.com/app", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	key, err := resolved.ResourceKey("cd://resources/chart")
	if err != nil {
		t.Fatal(err)
	}
	// Before an installation resolved the component, its key is unknown.
	if _, err := a.ByKey(ctx, key); !failure.IsTerminal(err) || !strings.Contains(err.Error(), "example.com/app:1.0.0") {
		t.Errorf("unknown component: %v", err)
	}
	a.Remember(resolved)
	byRef, _ := json.Marshal(map[string]any{"repositoryContext": rc, "componentName": "example.com/app", "version": "1.0.0"})
	// In a deploy item's configuration the inline descriptor is JSON.
	inline, err := yaml.YAMLToJSON([]byte(descriptor))
	if err != nil {
		t.Fatal(err)
	}
	for name, read := range map[string]func() ([]byte, error){
		"resourceRef": func() ([]byte, error) { return a.ByKey(ctx, key) },
		"fromResource ref": func() ([]byte, error) {
			return (&ComponentAccess{Registry: a.Registry}).FromComponent(ctx, helm.RemoteChartReference{Ref: byRef, ResourceName: "chart"})
		},
		"fromResource inline": func() ([]byte, error) {
			return a.FromComponent(ctx, helm.RemoteChartReference{Inline: inline, ResourceName: "remote-chart"})
		},
		"chart.ref": func() ([]byte, error) { return a.OCIChart(ctx, "oci://registry.test/charts/app:1.0.0") },
	} {
		got, err := read()
		if err != nil || string(got) != string(chart) {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
	_, err = a.FromComponent(ctx, helm.RemoteChartReference{Ref: byRef, ResourceName: "nope"})
	if !failure.IsTerminal(err) || !strings.Contains(err.Error(), "has no resource matching map[name:nope]") {
		t.Errorf("missing resource: %v", err)
	}
}
