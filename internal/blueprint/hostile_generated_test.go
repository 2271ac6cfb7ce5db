package blueprint

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// Hostile inputs too large to keep in testdata/hostile, or made of more
// than files (a registry), are built here and run through runHostile with
// the same bounds: a clear error, no hang, CPU and heap within
// hostileCPUBound and hostileHeapBound.

// TestRender_HostileTarHeaderBomb: a blueprint resource whose tar.gz blob
// of 160 KiB lists 160 directories with names of almost 1 MiB each — 160
// MiB of names an extractor charging only file contents would keep.
func TestRender_HostileTarHeaderBomb(t *testing.T) {
	blob, err := componenttest.GzipTar(componenttest.LongNameDirs(160, 1<<20-1024))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("blob of %d KiB", len(blob)>>10)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "blobs", "bomb.tar.gz"), blob)
	writeFile(t, filepath.Join(dir, "component-descriptor.yaml"), []byte(`meta: {schemaVersion: v2}
component:
  name: example.com/hostile
  version: v1.0.0
  provider: internal
  repositoryContexts: []
  sources: []
  componentReferences: []
  resources:
  - name: blueprint
    version: v1.0.0
    type: blueprint
    relation: local
    access: {type: localFilesystemBlob, filename: bomb.tar.gz, mediaType: application/vnd.gardener.landscaper.blueprint.v1+tar+gzip}
`))
	c := hostileCase{WantError: []string{`blueprint resource "blueprint"`, "tar archive expands to more than 67108864 bytes"}}
	runHostile(t, c, func() (*Blueprint, *Component, error) {
		return Resolve(Source{ResourceName: "blueprint"}, ComponentSource{Dir: dir})
	})
}

// TestRender_HostileReferenceFanOut: a component version in a registry
// referencing 3,000 others. The load fails naming it before any reference
// is requested, and no more than 16 requests ever run at once.
func TestRender_HostileReferenceFanOut(t *testing.T) {
	ctx := context.Background()
	rc := component.RepositorySpec{Type: "ociRegistry", BaseURL: "registry.test/base", ComponentNameMapping: "urlPath"}
	mem := componenttest.Memory{}
	if err := componenttest.PushFanOut(ctx, mem.Open, rc, "example.com/wide", 3000, 0); err != nil {
		t.Fatal(err)
	}
	requests := &componenttest.InFlight{Read: mem.Read, Delay: time.Millisecond}
	reg := &component.Registry{Client: ocireg.New(ocireg.Options{Repository: requests.Open})}
	c := hostileCase{WantError: []string{"component example.com/wide:1.0.0: its references make the tree", "more than 1000 component versions"}}
	runHostile(t, c, func() (*Blueprint, *Component, error) {
		root, err := reg.Load(ctx, component.VersionRef{Context: rc, Name: "example.com/wide", Version: "1.0.0"})
		if err != nil {
			return nil, nil, err
		}
		return Resolve(Source{ResourceName: "blueprint"}, ComponentSource{Loaded: root})
	})
	t.Logf("%d requests, at most %d at once", requests.Total(), requests.Max())
	if requests.Total() > 10 || requests.Max() > 16 {
		t.Errorf("%d requests, %d at once: the references were requested", requests.Total(), requests.Max())
	}
}

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
