package main

import (
	"archive/zip"
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const (
	project  = "terraform-provider-landscaper"
	version  = "0.1.1-SNAPSHOT-abc1234"
	manifest = `{"version": 1, "metadata": {"protocol_versions": ["6.0"]}}` + "\n"
)

// fakeDist writes a release for targets as goreleaser does.
func fakeDist(t *testing.T, targets []string) string {
	t.Helper()
	dist := t.TempDir()
	write := func(name string, content []byte) {
		if err := os.WriteFile(filepath.Join(dist, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("metadata.json", fmt.Appendf(nil, `{"project_name":%q,"version":%q}`, project, version))
	prefix := project + "_" + version
	for _, target := range targets {
		binary := project + "_v" + version
		if strings.HasPrefix(target, "windows_") {
			binary += ".exe"
		}
		writeZip(t, filepath.Join(dist, prefix+"_"+target+".zip"), map[string]string{binary: "binary"})
	}
	write(prefix+"_manifest.json", []byte(manifest))
	var sums strings.Builder
	entries, _ := os.ReadDir(dist)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".zip") || strings.HasSuffix(e.Name(), "_manifest.json") {
			content, err := os.ReadFile(filepath.Join(dist, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&sums, "%x  %s\n", sha256.Sum256(content), e.Name())
		}
	}
	write(prefix+"_SHA256SUMS", []byte(sums.String()))
	write(prefix+"_SHA256SUMS.sig", []byte{0x88, 0x75, 0x04})
	return dist
}

func writeZip(t *testing.T, path string, files map[string]string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, content := range files {
		h := &zip.FileHeader{Name: name, Method: zip.Deflate}
		h.SetMode(0o755)
		w, err := zw.CreateHeader(h)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = w.Write([]byte(content))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

func checkDist(t *testing.T, dist string, targets []string) []error {
	t.Helper()
	rel, err := readRelease(dist)
	if err != nil {
		return []error{err}
	}
	return rel.check(targets, []byte(manifest))
}

var targets = []string{"linux_amd64", "windows_amd64"}

// TestCheck_GoodRelease: a release laid out as the Registry wants passes,
// also as a snapshot, whose dist lacks the manifest that only publishing
// uploads, and with goreleaser's default documentation files in the zips.
func TestCheck_GoodRelease(t *testing.T) {
	if errs := checkDist(t, fakeDist(t, targets), targets); len(errs) > 0 {
		t.Fatalf("good release: %v", errs)
	}
	dist := fakeDist(t, targets)
	remove(t, dist, project+"_"+version+"_manifest.json")
	writeZip(t, filepath.Join(dist, project+"_"+version+"_linux_amd64.zip"), map[string]string{project + "_v" + version: "b", "README.md": "r", "CHANGELOG.md": "c"})
	// The zip changed after the checksums were written: only that differs.
	errs := checkDist(t, dist, targets)
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "linux_amd64.zip has sha256") {
		t.Fatalf("snapshot release: %v; want only the changed zip's checksum error", errs)
	}
}

// TestCheck_FindsEachProblem: every rule catches its violation, naming it.
func TestCheck_FindsEachProblem(t *testing.T) {
	prefix := project + "_" + version
	for _, tc := range []struct {
		name string
		edit func(t *testing.T, dist string)
		want string
	}{
		{"missing archive", func(t *testing.T, dist string) {
			remove(t, dist, prefix+"_windows_amd64.zip")
		}, "windows_amd64.zip"},
		{"binary not versioned", func(t *testing.T, dist string) {
			writeZip(t, filepath.Join(dist, prefix+"_linux_amd64.zip"), map[string]string{project: "binary"})
		}, "holds " + project + "; want " + project + "_v" + version},
		{"extra file in archive", func(t *testing.T, dist string) {
			writeZip(t, filepath.Join(dist, prefix+"_linux_amd64.zip"), map[string]string{project + "_v" + version: "b", "README.md": "r", "bin/tool": "x"})
		}, "holds bin/tool"},
		{"wrong protocol", func(t *testing.T, dist string) {
			rewrite(t, dist, prefix+"_manifest.json", `{"version": 1, "metadata": {"protocol_versions": ["5.0"]}}`)
		}, "protocol_versions [5.0]"},
		{"checksum mismatch", func(t *testing.T, dist string) {
			sums := filepath.Join(dist, prefix+"_SHA256SUMS")
			content, _ := os.ReadFile(sums)
			rewrite(t, dist, prefix+"_SHA256SUMS", strings.Replace(string(content), string(content[:4]), "0000", 1))
		}, "the file lists"},
		{"manifest not in checksums", func(t *testing.T, dist string) {
			sums := filepath.Join(dist, prefix+"_SHA256SUMS")
			content, _ := os.ReadFile(sums)
			var kept []string
			for _, l := range strings.Split(strings.TrimSpace(string(content)), "\n") {
				if !strings.HasSuffix(l, "_manifest.json") {
					kept = append(kept, l)
				}
			}
			rewrite(t, dist, prefix+"_SHA256SUMS", strings.Join(kept, "\n")+"\n")
		}, "want exactly"},
		{"armored signature", func(t *testing.T, dist string) {
			rewrite(t, dist, prefix+"_SHA256SUMS.sig", "-----BEGIN PGP SIGNATURE-----\n")
		}, "ASCII-armored"},
		{"version with v", func(t *testing.T, dist string) {
			rewrite(t, dist, "metadata.json", fmt.Sprintf(`{"project_name":%q,"version":"v1.0.0"}`, project))
		}, "not a semantic version"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dist := fakeDist(t, targets)
			tc.edit(t, dist)
			errs := checkDist(t, dist, targets)
			if !slices.ContainsFunc(errs, func(e error) bool { return strings.Contains(e.Error(), tc.want) }) {
				t.Errorf("errors %v; want one containing %q", errs, tc.want)
			}
		})
	}
}

func remove(t *testing.T, dist, name string) {
	t.Helper()
	if err := os.Remove(filepath.Join(dist, name)); err != nil {
		t.Fatal(err)
	}
}

func rewrite(t *testing.T, dist, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dist, name), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestConfigTargets_Release: the checkout's configuration builds the
// platforms the Registry should offer; the snapshot's explicit host target
// loses goreleaser's variant suffix.
func TestConfigTargets_Release(t *testing.T) {
	raw, err := os.ReadFile("../../../.goreleaser.yml")
	if err != nil {
		t.Fatal(err)
	}
	got, err := configTargets(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"linux_amd64", "linux_arm64", "darwin_arm64", "windows_amd64", "freebsd_386"} {
		if !slices.Contains(got, want) {
			t.Errorf("targets %v lack %s", got, want)
		}
	}
	if slices.Contains(got, "darwin_386") {
		t.Errorf("targets %v include the ignored darwin_386", got)
	}
	got, err = configTargets([]byte("builds:\n- targets: [linux_amd64_v1]\n"))
	if err != nil || !slices.Equal(got, []string{"linux_amd64"}) {
		t.Errorf("explicit target: %v, %v; want [linux_amd64]", got, err)
	}
}
