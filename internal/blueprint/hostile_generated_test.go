package blueprint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
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

func writeFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
