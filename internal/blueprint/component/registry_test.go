package component_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

var testContext = component.RepositorySpec{Type: "ociRegistry", BaseURL: "registry.test/base", ComponentNameMapping: "urlPath"}

// landscape pushes the landscape into in-memory repositories of
// "registry.test" and returns them.
func landscape(t *testing.T) componenttest.Memory {
	t.Helper()
	mem := componenttest.Memory{}
	pushLandscape(t, mem.Open, "registry.test")
	return mem
}

// pushLandscape pushes three component versions (app → mid → db,
// v3alpha1, v2 with legacy media types, v3alpha1) into host/base, a Helm
// chart and a blueprint artifact, with a resource of every access type and
// a blueprint in every media type, as testContext (with host) names them.
func pushLandscape(t *testing.T, open componenttest.Opener, host string) {
	t.Helper()
	ctx := context.Background()
	testContext := component.RepositorySpec{Type: "ociRegistry", BaseURL: host + "/base", ComponentNameMapping: "urlPath"}
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	schema := []byte(`{"type": "object", "properties": {"replicas": {"type": "integer"}}}`)
	must(componenttest.PushVersion(ctx, open, testContext, "example.com/db", "2.0.0", componenttest.Version{
		Descriptor: fmt.Sprintf(`
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/db, version: 2.0.0, provider: {name: test}}
repositoryContexts: [{type: ociRegistry, baseUrl: registry.test/base, componentNameMapping: urlPath}]
spec:
  resources:
  - {name: schema, version: 2.0.0, type: landscaper.gardener.cloud/jsonschema, relation: local,
     access: {type: localBlob, localReference: %q, mediaType: application/vnd.gardener.landscaper.jsonschema.layer.v1.json}}
`, componenttest.Digest(schema)),
		Blobs: []componenttest.Layer{{MediaType: "application/vnd.gardener.landscaper.jsonschema.layer.v1.json", Data: schema}},
	}))
	must(componenttest.PushVersion(ctx, open, testContext, "example.com/mid", "1.0.0", componenttest.Version{
		Legacy: true,
		Descriptor: `
meta: {schemaVersion: v2}
component:
  name: example.com/mid
  version: 1.0.0
  provider: internal
  repositoryContexts: [{type: ociRegistry, baseUrl: registry.test/base, componentNameMapping: urlPath}]
  sources: []
  componentReferences: [{name: db, componentName: example.com/db, version: 2.0.0}]
  resources: []
`}))
	chart, err := componenttest.TarGz(map[string]string{"app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n"})
	must(nil, err)
	chartDesc, err := componenttest.PushArtifact(ctx, open, host+"/base/charts/app:0.1.0",
		componenttest.Layer{MediaType: "application/vnd.cncf.helm.config.v1+json", Data: []byte(`{"name":"app","version":"0.1.0"}`)},
		componenttest.Layer{MediaType: "application/vnd.cncf.helm.chart.content.v1.tar+gzip", Data: chart})
	must(nil, err)
	blueprintFiles := map[string]string{"blueprint.yaml": "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n"}
	blueprint, err := componenttest.TarGz(blueprintFiles)
	must(nil, err)
	blueprintTar, err := componenttest.Tar(blueprintFiles)
	must(nil, err)
	// A blueprint as an artifact of its own, as Landscaper's tooling pushes it.
	must(componenttest.PushArtifact(ctx, open, host+"/base/blueprints/app:1.0.0",
		componenttest.Layer{MediaType: "application/vnd.gardener.landscaper.blueprint.config.v1", Data: []byte("{}")},
		componenttest.Layer{MediaType: "application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip", Data: blueprint}))
	config := []byte("key: value\n")
	must(componenttest.PushArtifact(ctx, open, host+"/other/blobs:any",
		componenttest.Layer{MediaType: "application/vnd.oci.image.config.v1+json", Data: []byte("{}")},
		componenttest.Layer{MediaType: "text/plain", Data: config}))
	must(componenttest.PushVersion(ctx, open, testContext, "example.com/app", "1.0.0", componenttest.Version{
		Descriptor: fmt.Sprintf(`
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/app, version: 1.0.0, provider: {name: test}}
repositoryContexts: [{type: ociRegistry, baseUrl: registry.test/base, componentNameMapping: urlPath}]
spec:
  references: [{name: mid, componentName: example.com/mid, version: 1.0.0}]
  resources:
  - name: blueprint
    version: 1.0.0
    type: landscaper.gardener.cloud/blueprint
    relation: local
    access: {type: localBlob, localReference: %[1]q, mediaType: application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip}
    digest: {hashAlgorithm: SHA-256, normalisationAlgorithm: genericBlobDigest/v1, value: %[2]q}
  - {name: blueprint-legacy, version: 1.0.0, type: blueprint, relation: local,
     access: {type: localOciBlob, digest: %[1]q}}
  - {name: blueprint-v1, version: 1.0.0, type: blueprint, relation: local,
     access: {type: localBlob, localReference: %[1]q, mediaType: application/vnd.gardener.landscaper.blueprint.v1+tar+gzip}}
  - {name: blueprint-tar, version: 1.0.0, type: landscaper.gardener.cloud/blueprint, relation: local,
     access: {type: localBlob, localReference: %[7]q, mediaType: application/vnd.gardener.landscaper.blueprint.layer.v1.tar}}
  - {name: blueprint-artifact, version: 1.0.0, type: landscaper.gardener.cloud/blueprint, relation: external,
     access: {type: ociArtifact, imageReference: "%[6]s/base/blueprints/app:1.0.0"}}
  - {name: chart-ociregistry, version: 0.1.0, type: helmChart, relation: external,
     access: {type: ociRegistry, imageReference: "%[6]s/base/charts/app:0.1.0"}}
  - name: chart
    version: 0.1.0
    type: helmChart
    relation: external
    access: {type: ociArtifact, imageReference: "%[6]s/base/charts/app:0.1.0"}
    digest: {hashAlgorithm: SHA-256, normalisationAlgorithm: ociArtifactDigest/v1, value: %[3]q}
  - {name: chart-relative, version: 0.1.0, type: helmChart, relation: external,
     access: {type: relativeOciReference, reference: "charts/app:0.1.0"}}
  - {name: config, version: 1.0.0, type: plainText, relation: external,
     access: {type: ociBlob, ref: "%[6]s/other/blobs", digest: %[4]q, mediaType: text/plain, size: %[5]d}}
  - name: tampered
    version: 1.0.0
    type: plainText
    relation: external
    access: {type: ociBlob, ref: "%[6]s/other/blobs", digest: %[4]q, mediaType: text/plain, size: %[5]d}
    digest: {hashAlgorithm: SHA-256, normalisationAlgorithm: genericBlobDigest/v1, value: "0000"}
  - {name: missing, version: 1.0.0, type: plainText, relation: local,
     access: {type: localBlob, localReference: "sha256:0000000000000000000000000000000000000000000000000000000000000000"}}
`, componenttest.Digest(blueprint), strings.TrimPrefix(componenttest.Digest(blueprint), "sha256:"),
			strings.TrimPrefix(chartDesc.Digest.String(), "sha256:"), componenttest.Digest(config), len(config), host,
			componenttest.Digest(blueprintTar)),
		Blobs: []componenttest.Layer{
			{MediaType: "application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip", Data: blueprint},
			{MediaType: "application/vnd.gardener.landscaper.blueprint.layer.v1.tar", Data: blueprintTar},
		},
	}))
}

func load(t *testing.T, mem componenttest.Memory, cacheDir, name, version string) (*component.Component, *ocireg.Client, error) {
	t.Helper()
	client := ocireg.New(ocireg.Options{CacheDir: cacheDir, Repository: mem.Read})
	reg := &component.Registry{Client: client}
	c, err := reg.Load(context.Background(), component.VersionRef{Context: testContext, Name: name, Version: version})
	return c, client, err
}

// TestRegistryLoad_ReferencesTwoLevelsDeep proves a component version is
// read with its references transitively, and cd:// paths reach a local
// blob of a component two references away.
func TestRegistryLoad_ReferencesTwoLevelsDeep(t *testing.T) {
	mem := landscape(t)
	c, _, err := load(t, mem, t.TempDir(), "example.com/app", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Digests(); len(got) != 3 {
		t.Errorf("digests %v, want three versions", got)
	}
	comps, _ := c.List()["components"].([]any)
	if len(comps) != 3 {
		t.Errorf("components input holds %d descriptors, want 3", len(comps))
	}
	content, err := c.ResourceContent("cd://componentReferences/mid/componentReferences/db/resources/schema")
	if err != nil || !strings.Contains(content, `"replicas"`) {
		t.Errorf("schema content %q, %v", content, err)
	}
}

// TestRegistryFetch_AccessTypes proves each access type reads the bytes
// pushed for it.
func TestRegistryFetch_AccessTypes(t *testing.T) {
	mem := landscape(t)
	c, _, err := load(t, mem, t.TempDir(), "example.com/app", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	checkAccessTypes(t, c)
}

// checkAccessTypes reads a resource of each access type and each
// blueprint media type of the landscape's app.
func checkAccessTypes(t *testing.T, c *component.Component) {
	t.Helper()
	for _, name := range []string{"blueprint", "blueprint-legacy", "blueprint-v1", "blueprint-tar", "blueprint-artifact"} {
		files, err := c.BlobFS(resource(t, c, name))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if _, err := files.Open("blueprint.yaml"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, name := range []string{"chart", "chart-relative", "chart-ociregistry"} {
		b, err := c.Fetch(context.Background(), resource(t, c, name))
		if err != nil || b.MediaType != "application/vnd.cncf.helm.chart.content.v1.tar+gzip" {
			t.Errorf("%s: %s, %v", name, b.MediaType, err)
		}
	}
	if b, err := c.Fetch(context.Background(), resource(t, c, "config")); err != nil || string(b.Data) != "key: value\n" {
		t.Errorf("ociBlob: %q, %v", b.Data, err)
	}
}

// TestRegistryFetch_Errors proves a missing version, a missing blob and a
// digest mismatch each name the component version and the resource.
func TestRegistryFetch_Errors(t *testing.T) {
	mem := landscape(t)
	_, _, err := load(t, mem, t.TempDir(), "example.com/app", "9.9.9")
	if err == nil || !strings.Contains(err.Error(), "component example.com/app:9.9.9") || !errors.Is(err, ocireg.ErrNotFound) {
		t.Errorf("missing version: %v", err)
	}
	c, _, err := load(t, mem, t.TempDir(), "example.com/app", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"missing": "is not a layer", "tampered": "digest mismatch"} {
		_, err := c.Fetch(context.Background(), resource(t, c, name))
		if err == nil || !strings.Contains(err.Error(), `component example.com/app:1.0.0 resource "`+name+`"`) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestRegistryLoad_OfflineFromCache proves a version read once is read
// again from the cache when the registry cannot be reached, with a warning.
func TestRegistryLoad_OfflineFromCache(t *testing.T) {
	mem := landscape(t)
	cacheDir := t.TempDir()
	online, _, err := load(t, mem, cacheDir, "example.com/app", "1.0.0")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := online.ResourceContent("cd://componentReferences/mid/componentReferences/db/resources/schema"); err != nil {
		t.Fatal(err)
	}
	down := func(string) (ocireg.Target, error) {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("connection refused")}
	}
	client := ocireg.New(ocireg.Options{CacheDir: cacheDir, Repository: down})
	c, err := (&component.Registry{Client: client}).Load(context.Background(),
		component.VersionRef{Context: testContext, Name: "example.com/app", Version: "1.0.0"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ResourceContent("cd://componentReferences/mid/componentReferences/db/resources/schema"); err != nil {
		t.Error(err)
	}
	if len(client.Warnings()) != 3 {
		t.Errorf("warnings %v, want one per version", client.Warnings())
	}
	// Without a cache, an unreachable registry is an error.
	_, err = (&component.Registry{Client: ocireg.New(ocireg.Options{Repository: down})}).Load(context.Background(),
		component.VersionRef{Context: testContext, Name: "example.com/app", Version: "1.0.0"})
	if err == nil || !strings.Contains(err.Error(), "connection refused") {
		t.Errorf("uncached: %v", err)
	}
}

// TestRepositorySpec_Reference proves both name mappings, as Landscaper
// computes them.
func TestRepositorySpec_Reference(t *testing.T) {
	cases := map[string]struct {
		rc        component.RepositorySpec
		repo, tag string
	}{
		"urlPath":        {component.RepositorySpec{Type: "ociRegistry", BaseURL: "https://r.io/base/"}, "r.io/base/component-descriptors/example.com/app", "1.0.0+b"},
		"sha256-digest":  {component.RepositorySpec{Type: "ociRegistry", BaseURL: "r.io:5000", ComponentNameMapping: "sha256-digest"}, "r.io:5000/8f5e6d7a4c3a6a1a1a4a0ae7b7a1e0c94c3e5dcc3a3eb3bcc0d1f4b4cde24e77", "1.0.0+b"},
		"OCM type, path": {component.RepositorySpec{Type: "OCIRegistry", BaseURL: "r.io", SubPath: "sub"}, "r.io/sub/component-descriptors/example.com/app", "1.0.0+b"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			repo, tag, err := tc.rc.Reference("example.com/app", "1.0.0+b")
			if err != nil {
				t.Fatal(err)
			}
			if name == "sha256-digest" {
				tc.repo = "r.io:5000/" + strings.TrimPrefix(componenttest.Digest([]byte("example.com/app")), "sha256:")
			}
			if repo != tc.repo || tag != "1.0.0.build-b" {
				t.Errorf("got %s:%s, want %s:1.0.0.build-b", repo, tag, tc.repo)
			}
		})
	}
	if _, _, err := (component.RepositorySpec{Type: "local", BaseURL: "x"}).Reference("a", "1"); err == nil {
		t.Error("unknown type accepted")
	}
}

func resource(t *testing.T, c *component.Component, name string) component.Resource {
	t.Helper()
	for _, r := range c.Descriptor.Component.Resources {
		if r.Name == name {
			return r
		}
	}
	t.Fatalf("no resource %s", name)
	return component.Resource{}
}
