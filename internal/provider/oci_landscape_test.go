package provider

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path"
	"path/filepath"
	"sync"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
)

// Media types the landscape's resources are pushed with.
const (
	mediaTypeHelmChart = "application/vnd.cncf.helm.chart.content.v1.tar+gzip"
	mediaTypeBlueprint = "application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip"
	mediaTypeSchema    = "application/vnd.gardener.landscaper.jsonschema.layer.v1.json"
)

// ociLandscape is a set of component versions in a real registry:
// example.com/app (v3alpha1) → example.com/mid (v2, component-cli media
// types) → example.com/lib (v3alpha1), with the blueprint of
// testdata/oci-landscape as a local blob of app, the chart of
// testdata/oci-landscape as a local blob of lib and as an OCI artifact
// next to the components, and the settings schema as a local blob of lib;
// example.com/app:1.0.0-tampered references example.com/leaf (v2) with a
// digest leaf does not have.
type ociLandscape struct {
	t *testing.T
	// host is where the provider reads the registry (what the
	// descriptors name); push writes to the registry itself.
	host string
	push componenttest.Opener
	// appDigest is the manifest digest of example.com/app:1.0.0 after
	// the last pushAll.
	appDigest string
}

func (l *ociLandscape) context() component.RepositorySpec {
	return component.RepositorySpec{Type: "ociRegistry", BaseURL: l.host + "/landscape", ComponentNameMapping: "urlPath"}
}

// pushAll pushes every component version; marker changes app's
// descriptor (a label) so a second push moves its tag.
func (l *ociLandscape) pushAll(marker string) {
	l.t.Helper()
	ctx := context.Background()
	pushHost := l.host
	chart := l.archive("chart", "greeting/")
	blueprint := l.archive("blueprint", "")
	schema := []byte(`{"type": "object", "required": ["greeting"], "properties": {"greeting": {"type": "string"}}}`)
	repoCtx := fmt.Sprintf("repositoryContexts: [{type: ociRegistry, baseUrl: %q, componentNameMapping: urlPath}]", l.host+"/landscape")
	l.mustPush(componenttest.PushArtifact(ctx, l.push, pushHost+"/landscape/charts/greeting:0.1.0",
		componenttest.Layer{MediaType: "application/vnd.cncf.helm.config.v1+json", Data: []byte(`{"name":"greeting","version":"0.1.0"}`)},
		componenttest.Layer{MediaType: mediaTypeHelmChart, Data: chart}))
	l.mustPush(componenttest.PushVersion(ctx, l.push, l.context(), "example.com/lib", "1.0.0", componenttest.Version{
		Descriptor: fmt.Sprintf(`
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/lib, version: 1.0.0, provider: {name: test}}
%s
spec:
  resources:
  - {name: chart, version: 0.1.0, type: helmChart, relation: local,
     access: {type: localBlob, localReference: %q, mediaType: %s}}
  - {name: schema, version: 1.0.0, type: landscaper.gardener.cloud/jsonschema, relation: local,
     access: {type: localBlob, localReference: %q, mediaType: %s}}
`, repoCtx, componenttest.Digest(chart), mediaTypeHelmChart, componenttest.Digest(schema), mediaTypeSchema),
		Blobs: []componenttest.Layer{{MediaType: mediaTypeHelmChart, Data: chart}, {MediaType: mediaTypeSchema, Data: schema}},
	}))
	l.mustPush(componenttest.PushVersion(ctx, l.push, l.context(), "example.com/mid", "1.0.0", componenttest.Version{
		Legacy: true,
		Descriptor: fmt.Sprintf(`
meta: {schemaVersion: v2}
component:
  name: example.com/mid
  version: 1.0.0
  provider: internal
  %s
  sources: []
  componentReferences:
  - name: lib
    componentName: example.com/lib
    version: 1.0.0
  resources: []
`, repoCtx),
	}))
	app, err := componenttest.PushVersion(ctx, l.push, l.context(), "example.com/app", "1.0.0", componenttest.Version{
		Descriptor: fmt.Sprintf(`
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/app, version: 1.0.0, provider: {name: test}, labels: [{name: marker, value: %q}]}
%s
spec:
  references: [{name: mid, componentName: example.com/mid, version: 1.0.0}]
  resources:
  - {name: blueprint, version: 1.0.0, type: landscaper.gardener.cloud/blueprint, relation: local,
     access: {type: localBlob, localReference: %[3]q, mediaType: %[4]s}}
  - name: tampered-blueprint
    version: 1.0.0
    type: landscaper.gardener.cloud/blueprint
    relation: local
    access: {type: localBlob, localReference: %[3]q, mediaType: %[4]s}
    digest: {hashAlgorithm: SHA-256, normalisationAlgorithm: genericBlobDigest/v1, value: "0000"}
  - {name: chart, version: 0.1.0, type: helmChart, relation: external,
     access: {type: ociArtifact, imageReference: %[5]q}}
`, marker, repoCtx, componenttest.Digest(blueprint), mediaTypeBlueprint, l.host+"/landscape/charts/greeting:0.1.0"),
		Blobs: []componenttest.Layer{{MediaType: mediaTypeBlueprint, Data: blueprint}},
	})
	l.mustPush(app, err)
	l.appDigest = app.Digest.String()
	// A version whose reference to leaf declares a digest leaf does not
	// have. leaf is a v2 descriptor that jsonNormalisation/v1 covers (a
	// provider, no references or resources), so its digest is computed
	// and the mismatch found; mid's (its reference to lib has no digest)
	// could not be computed at all.
	l.mustPush(componenttest.PushVersion(ctx, l.push, l.context(), "example.com/leaf", "1.0.0", componenttest.Version{
		Legacy: true,
		Descriptor: fmt.Sprintf(`
meta: {schemaVersion: v2}
component:
  name: example.com/leaf
  version: 1.0.0
  provider: internal
  %s
  sources: []
  componentReferences: []
  resources: []
`, repoCtx),
	}))
	l.mustPush(componenttest.PushVersion(ctx, l.push, l.context(), "example.com/app", "1.0.0-tampered", componenttest.Version{
		Descriptor: fmt.Sprintf(`
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/app, version: 1.0.0-tampered, provider: {name: test}}
%s
spec:
  references:
  - {name: leaf, componentName: example.com/leaf, version: 1.0.0,
     digest: {hashAlgorithm: SHA-256, normalisationAlgorithm: jsonNormalisation/v1, value: "0000"}}
`, repoCtx),
	}))
}

func (l *ociLandscape) mustPush(_ any, err error) {
	l.t.Helper()
	if err != nil {
		l.t.Fatalf("pushing the landscape: %v", err)
	}
}

// archive packs testdata/oci-landscape/<dir> as a tar.gz, each path under
// prefix.
func (l *ociLandscape) archive(dir, prefix string) []byte {
	l.t.Helper()
	root := filepath.Join("testdata", "oci-landscape", dir)
	files := map[string]string{}
	err := fs.WalkDir(os.DirFS(root), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(filepath.Join(root, name))
		files[path.Join(prefix, name)] = string(data)
		return err
	})
	if err != nil {
		l.t.Fatal(err)
	}
	data, err := componenttest.TarGz(files)
	if err != nil {
		l.t.Fatal(err)
	}
	return data
}

// tcpProxy forwards a loopback port to the registry, so a test can make
// the registry unreachable (Stop) while its content stays.
type tcpProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startProxy(t *testing.T, target string) *tcpProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &tcpProxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go p.forward(c, target)
		}
	}()
	t.Cleanup(p.Stop)
	return p
}

func (p *tcpProxy) Host() string { return p.ln.Addr().String() }

func (p *tcpProxy) forward(c net.Conn, target string) {
	up, err := net.Dial("tcp", target)
	if err != nil {
		_ = c.Close()
		return
	}
	p.mu.Lock()
	p.conns = append(p.conns, c, up)
	p.mu.Unlock()
	go func() { _, _ = io.Copy(up, c); _ = up.Close() }()
	_, _ = io.Copy(c, up)
	_ = c.Close()
}

// Stop closes the port and every open connection.
func (p *tcpProxy) Stop() {
	if err := p.ln.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		_ = c.Close()
	}
	p.conns = nil
}

// providerRegistryHCL is a provider block reading host with credentials.
func providerRegistryHCL(cacheDir, host, user, password string) string {
	return fmt.Sprintf(`
provider "landscaper" {
  registry = {
    cache_dir   = %q
    credentials = [{ host = %q, username = %q, password = %q }]
  }
}
`, cacheDir, host, user, password)
}
