package landscaperrecording

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"testing"
)

// recordings are the recordings of Landscaper's controllers, one folder
// per Landscaper version and recording.
//
//go:embed testdata/landscaper-v0.98
var recordings embed.FS

// Version is the version of Landscaper the recordings were made with.
const Version = "v0.98"

// Recordings names the recordings of Version ("harbor-installed", …).
func Recordings() []string {
	entries, err := fs.ReadDir(recordings, recordingsDir)
	if err != nil {
		panic(err) // embedded at build time
	}
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	sort.Strings(out)
	return out
}

const recordingsDir = "testdata/landscaper-" + Version

// Load reads the recording name of Version.
func Load(name string) (*Recording, error) {
	return Read(recordings, path.Join(recordingsDir, name))
}

// MustLoad is Load that fails the test on error.
func MustLoad(t testing.TB, name string) *Recording {
	t.Helper()
	r, err := Load(name)
	if err != nil {
		t.Fatalf("landscaperrecording: %v", err)
	}
	return r
}
