package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"
)

// release is what goreleaser wrote into dist, as the Registry sees it.
type release struct {
	dist    string
	project string // terraform-provider-<name>
	version string // semantic version without a leading v
}

// metadata is the part of goreleaser's dist/metadata.json read here.
type metadata struct {
	ProjectName string `json:"project_name"`
	Version     string `json:"version"`
}

// semver is the Registry's version rule: MAJOR.MINOR.PATCH with an optional
// pre-release, and no leading "v" in file names.
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$`)

func readRelease(dist string) (release, error) {
	raw, err := os.ReadFile(filepath.Join(dist, "metadata.json"))
	if err != nil {
		return release{}, fmt.Errorf("goreleaser's metadata: %w", err)
	}
	var m metadata
	if err := json.Unmarshal(raw, &m); err != nil {
		return release{}, fmt.Errorf("goreleaser's metadata.json: %w", err)
	}
	if !strings.HasPrefix(m.ProjectName, "terraform-provider-") {
		return release{}, fmt.Errorf("project name %q: the Registry wants terraform-provider-<name>", m.ProjectName)
	}
	if !semver.MatchString(m.Version) {
		return release{}, fmt.Errorf("version %q is not a semantic version without a leading v", m.Version)
	}
	return release{dist: dist, project: m.ProjectName, version: m.Version}, nil
}

func (r release) file(suffix string) string {
	return filepath.Join(r.dist, r.project+"_"+r.version+suffix)
}

// check returns every way the release differs from what the Registry
// expects: one zip per target holding only the versioned binary, a manifest
// equal to the checkout's, a SHA256SUMS that lists exactly the zips and the
// manifest with their real hashes, and a binary (not armored) signature of it.
//
// goreleaser uploads the manifest only when publishing (release.extra_files),
// so a snapshot's dist has none: then the checkout's manifest stands in for
// it, the file the release would upload under that name.
func (r release) check(targets []string, wantManifest []byte) []error {
	var errs []error
	var listed []string
	for _, t := range targets {
		name := filepath.Base(r.file("_" + t + ".zip"))
		listed = append(listed, name)
		if err := r.checkZip(name, strings.HasPrefix(t, "windows_")); err != nil {
			errs = append(errs, err)
		}
	}
	manifest := filepath.Base(r.file("_manifest.json"))
	listed = append(listed, manifest)
	manifestContent, err := os.ReadFile(filepath.Join(r.dist, manifest))
	if errors.Is(err, os.ErrNotExist) {
		manifestContent, err = wantManifest, nil
	}
	if err != nil {
		errs = append(errs, fmt.Errorf("registry manifest: %w", err))
	} else if err := checkManifest(manifest, manifestContent, wantManifest); err != nil {
		errs = append(errs, err)
	}
	if err := r.checkSums(listed, map[string][]byte{manifest: manifestContent}); err != nil {
		errs = append(errs, err)
	}
	if err := checkSignature(r.file("_SHA256SUMS.sig")); err != nil {
		errs = append(errs, err)
	}
	return errs
}

func (r release) checkZip(name string, windows bool) error {
	zr, err := zip.OpenReader(filepath.Join(r.dist, name))
	if err != nil {
		return fmt.Errorf("archive %s: %w", name, err)
	}
	defer zr.Close()
	want := r.project + "_v" + r.version
	if windows {
		want += ".exe"
	}
	// goreleaser adds README, CHANGELOG and LICENSE files by default; the
	// Registry and the CLIs ignore them. Anything else is a mistake.
	var binary *zip.File
	for _, f := range zr.File {
		switch {
		case f.Name == want:
			binary = f
		case !strings.Contains(f.Name, "/") && docFile.MatchString(f.Name):
		default:
			return fmt.Errorf("archive %s holds %s; want %s at its top and at most README, CHANGELOG and LICENSE files", name, f.Name, want)
		}
	}
	if binary == nil {
		return fmt.Errorf("archive %s lacks %s at its top", name, want)
	}
	if !windows && binary.Mode().Perm()&0o111 == 0 {
		return fmt.Errorf("archive %s: %s is not executable (mode %v)", name, want, binary.Mode())
	}
	return nil
}

var docFile = regexp.MustCompile(`^(README|CHANGELOG|LICENSE)[^/]*$`)

// checkManifest: the Registry reads protocol_versions from it; it must be
// the checkout's manifest (protocol 6, which main.go serves).
func checkManifest(name string, got, want []byte) error {
	var m struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(got, &m); err != nil {
		return fmt.Errorf("registry manifest %s: %w", name, err)
	}
	if m.Version != 1 || !slices.Equal(m.Metadata.ProtocolVersions, []string{"6.0"}) {
		return fmt.Errorf("registry manifest %s: version %d, protocol_versions %v; want 1 and [6.0]",
			name, m.Version, m.Metadata.ProtocolVersions)
	}
	if !bytes.Equal(got, want) {
		return fmt.Errorf("registry manifest %s differs from terraform-registry-manifest.json", name)
	}
	return nil
}

// checkSums: uploaded lists files the release uploads that dist lacks.
func (r release) checkSums(want []string, uploaded map[string][]byte) error {
	path := r.file("_SHA256SUMS")
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("checksums: %w", err)
	}
	defer f.Close()
	var listed []string
	var errs []error
	lines := bufio.NewScanner(f)
	for lines.Scan() {
		sum, name, ok := strings.Cut(lines.Text(), "  ")
		if !ok || len(sum) != sha256.Size*2 {
			errs = append(errs, fmt.Errorf("checksums: line %q is not `<sha256>  <file>`", lines.Text()))
			continue
		}
		listed = append(listed, name)
		content, err := os.ReadFile(filepath.Join(r.dist, name))
		if c, ok := uploaded[name]; ok && errors.Is(err, os.ErrNotExist) {
			content, err = c, nil
		}
		if err != nil {
			errs = append(errs, fmt.Errorf("checksums list %s: %w", name, err))
			continue
		}
		if got := sha256.Sum256(content); hex.EncodeToString(got[:]) != sum {
			errs = append(errs, fmt.Errorf("checksums: %s has sha256 %x, the file lists %s", name, got, sum))
		}
	}
	if err := lines.Err(); err != nil {
		return fmt.Errorf("checksums: %w", err)
	}
	slices.Sort(listed)
	want = slices.Sorted(slices.Values(want))
	if !slices.Equal(listed, want) {
		errs = append(errs, fmt.Errorf("checksums list %v, want exactly %v", listed, want))
	}
	return errors.Join(errs...)
}

// checkSignature: the Registry verifies a binary detached signature; an
// ASCII-armored one is refused. Whether it verifies is gpg's job (snapshot.sh).
func checkSignature(path string) error {
	sig, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("signature: %w", err)
	}
	if len(sig) == 0 || bytes.HasPrefix(sig, []byte("-----BEGIN")) {
		return fmt.Errorf("signature %s: want a binary detached signature, got %d bytes%s",
			filepath.Base(path), len(sig), map[bool]string{true: " (ASCII-armored)"}[len(sig) > 0])
	}
	return nil
}

// goreleaserConfig is the part of .goreleaser.yml that names the targets.
type goreleaserConfig struct {
	Builds []struct {
		Targets []string   `json:"targets"`
		Goos    []string   `json:"goos"`
		Goarch  []string   `json:"goarch"`
		Ignore  []platform `json:"ignore"`
	} `json:"builds"`
}

type platform struct {
	Goos   string `json:"goos"`
	Goarch string `json:"goarch"`
}

// configTargets returns the os_arch targets the configuration builds: its
// explicit targets (a variant suffix such as amd64's _v1 dropped: archive
// names have none), or goos × goarch without the ignored pairs.
func configTargets(raw []byte) ([]string, error) {
	var c goreleaserConfig
	if err := yaml.Unmarshal(raw, &c); err != nil {
		return nil, err
	}
	if len(c.Builds) != 1 {
		return nil, fmt.Errorf("want exactly one build, found %d", len(c.Builds))
	}
	b := c.Builds[0]
	if len(b.Targets) > 0 {
		targets := make([]string, 0, len(b.Targets))
		for _, t := range b.Targets {
			parts := strings.SplitN(t, "_", 3)
			if len(parts) < 2 {
				return nil, fmt.Errorf("target %q: want <os>_<arch>", t)
			}
			targets = append(targets, parts[0]+"_"+parts[1])
		}
		return targets, nil
	}
	var targets []string
	for _, goos := range b.Goos {
		for _, goarch := range b.Goarch {
			if !slices.Contains(b.Ignore, platform{Goos: goos, Goarch: goarch}) {
				targets = append(targets, goos+"_"+goarch)
			}
		}
	}
	if len(targets) == 0 {
		return nil, errors.New("the build names no targets")
	}
	return targets, nil
}
