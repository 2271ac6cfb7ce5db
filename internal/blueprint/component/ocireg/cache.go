package ocireg

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// cache is the content-addressed store on disk: blobs/<alg>/<hex> holds
// content, tags/<sha256 of the reference> the descriptor a tag last
// resolved to. Content is verified before it is written and again when it
// is read, so a damaged file is fetched anew instead of used. A nil cache
// stores nothing.
type cache struct{ dir string }

func (c *cache) blobPath(d digest.Digest) (string, bool) {
	if c == nil || d.Validate() != nil {
		return "", false
	}
	return filepath.Join(c.dir, "blobs", d.Algorithm().String(), d.Encoded()), true
}

func (c *cache) blob(desc ocispec.Descriptor) ([]byte, bool) {
	p, ok := c.blobPath(desc.Digest)
	if !ok {
		return nil, false
	}
	data, err := os.ReadFile(p)
	if err != nil || int64(len(data)) != desc.Size || desc.Digest.Algorithm().FromBytes(data) != desc.Digest {
		return nil, false
	}
	return data, true
}

// manifest returns the descriptor of a manifest in the cache, known only
// by its digest (a digest recorded in Terraform state).
func (c *cache) manifest(d digest.Digest) (ocispec.Descriptor, bool) {
	p, ok := c.blobPath(d)
	if !ok {
		return ocispec.Descriptor{}, false
	}
	data, err := os.ReadFile(p)
	if err != nil || d.Algorithm().FromBytes(data) != d {
		return ocispec.Descriptor{}, false
	}
	var m struct {
		MediaType string `json:"mediaType"`
	}
	if json.Unmarshal(data, &m) != nil {
		return ocispec.Descriptor{}, false
	}
	if m.MediaType == "" {
		m.MediaType = ocispec.MediaTypeImageManifest
	}
	return ocispec.Descriptor{MediaType: m.MediaType, Digest: d, Size: int64(len(data))}, true
}

// putBlob stores verified content. Failures only cost a later fetch.
func (c *cache) putBlob(desc ocispec.Descriptor, data []byte) {
	if p, ok := c.blobPath(desc.Digest); ok {
		writeAtomic(p, data)
	}
}

func (c *cache) tagPath(ref string) string {
	sum := sha256.Sum256([]byte(ref))
	return filepath.Join(c.dir, "tags", hex.EncodeToString(sum[:])+".json")
}

type tagEntry struct {
	Reference  string             `json:"reference"`
	Descriptor ocispec.Descriptor `json:"descriptor"`
}

func (c *cache) descriptor(ref string) (ocispec.Descriptor, bool) {
	if c == nil {
		return ocispec.Descriptor{}, false
	}
	data, err := os.ReadFile(c.tagPath(ref))
	if err != nil {
		return ocispec.Descriptor{}, false
	}
	var e tagEntry
	if json.Unmarshal(data, &e) != nil || e.Reference != ref || e.Descriptor.Digest.Validate() != nil {
		return ocispec.Descriptor{}, false
	}
	return e.Descriptor, true
}

func (c *cache) putDescriptor(ref string, desc ocispec.Descriptor) {
	if c == nil {
		return
	}
	data, err := json.Marshal(tagEntry{Reference: ref, Descriptor: desc})
	if err == nil {
		writeAtomic(c.tagPath(ref), data)
	}
}

// writeAtomic writes through a temporary file and a rename, so parallel
// Terraform commands sharing the cache never read a half-written file.
func writeAtomic(p string, data []byte) {
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if werr != nil || cerr != nil || os.Rename(f.Name(), p) != nil {
		_ = os.Remove(f.Name())
	}
}
