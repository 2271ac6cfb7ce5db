package component_test

import (
	"archive/tar"
	"bytes"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
)

// TestExtractTar_HeaderBomb proves everything a tar makes the extractor
// read or keep counts against its budget, not only regular files'
// contents: names (PAX paths of up to 1 MiB each), headers of directories
// and of entries it skips, the data of skipped entries, and the number of
// entries. A blob of a few hundred KiB must not expand to more than the
// budget.
func TestExtractTar_HeaderBomb(t *testing.T) {
	cases := map[string]struct {
		entries []componenttest.TarEntry
		want    string
	}{
		// 80 names of almost 1 MiB: 80 MiB of names kept as directory entries.
		"long names": {componenttest.LongNameDirs(80, 1<<20-1024), "expands to more than"},
		// Every header costs a block and a map entry.
		"many entries": {componenttest.ManyDirs(20_001), "more than 10000 entries"},
		// A continuous-file entry ('7') is skipped, but its data is read.
		"skipped data": {[]componenttest.TarEntry{{Name: "skip", Typeflag: tar.TypeCont, Size: 65 << 20}}, "expands to more than"},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			blob, err := componenttest.GzipTar(c.entries)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("blob of %d KiB", len(blob)>>10)
			_, err = component.ExtractTar(bytes.NewReader(blob))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want an error containing %q, got %v", c.want, err)
			}
		})
	}
	// Within the bounds, directories and files still extract.
	blob, err := componenttest.GzipTar(append(componenttest.ManyDirs(1000), componenttest.TarEntry{Name: "d/f", Typeflag: tar.TypeReg, Size: 3}))
	if err != nil {
		t.Fatal(err)
	}
	files, err := component.ExtractTar(bytes.NewReader(blob))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := files.Open("d/999"); err != nil {
		t.Error(err)
	}
}
