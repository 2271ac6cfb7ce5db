package component

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// Local blob access types of a component archive (v2 and OCM spellings).
const (
	accessLocalFilesystemBlob = "localFilesystemBlob"
	accessLocalBlob           = "localBlob"
	accessLocalOCIBlob        = "localOciBlob"
)

// descriptorFile is the descriptor's path inside a component archive.
const descriptorFile = "component-descriptor.yaml"

// maxBlobBytes bounds a local blob read into memory.
const maxBlobBytes = 256 << 20

// FromArchiveDir reads a local component archive directory
// (component-descriptor.yaml and blobs/). The directory is opened as an
// os.Root, so no blob name or symlink reaches a file outside it.
func FromArchiveDir(dir string) (*Component, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("component archive: %w", err)
	}
	return FromArchive(root.FS())
}

// FromArchive reads a component archive from a filesystem.
func FromArchive(archive fs.FS) (*Component, error) {
	data, err := fs.ReadFile(archive, descriptorFile)
	if err != nil {
		return nil, fmt.Errorf("component archive: %w", err)
	}
	c, err := FromInline(data)
	if err != nil {
		return nil, fmt.Errorf("component archive %s: %w", descriptorFile, err)
	}
	for _, r := range c.Tree() {
		r.Archive = archive
	}
	return c, nil
}

// FromInline reads a descriptor given as YAML or JSON text. Further YAML
// documents (separated by "---") are descriptors of referenced components,
// as are the descriptors component references hold in their
// InlineDescriptorLabel (Landscaper's nested inline descriptors), so
// getComponent and cd://componentReferences/… work without a registry.
func FromInline(data []byte) (*Component, error) {
	var root *Component
	for i, doc := range documentSeparator().Split(string(data), -1) {
		if strings.TrimSpace(doc) == "" {
			continue
		}
		d, generic, err := ParseDescriptor([]byte(doc))
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		c := &Component{Descriptor: d, Generic: generic}
		if err := c.expandNested(0); err != nil {
			return nil, fmt.Errorf("document %d: %w", i+1, err)
		}
		if root == nil {
			root = c
			continue
		}
		root.Referenced = append(root.Referenced, c)
	}
	if root == nil {
		return nil, errors.New("component descriptor is empty")
	}
	return root, nil
}

var documentSeparator = lazyregexp.New(`(?m)^---[ \t]*$`)

// access is the part of a resource access this package understands.
type access struct {
	Type           string `json:"type"`
	Filename       string `json:"filename"`
	LocalReference string `json:"localReference"`
	MediaType      string `json:"mediaType"`
	Digest         string `json:"digest"`
}

// readLocalBlob reads the blob a local access points at from the archive.
func (c *Component) readLocalBlob(rawAccess json.RawMessage) ([]byte, string, error) {
	name, mediaType, err := c.localBlobName(rawAccess)
	if err != nil {
		return nil, "", err
	}
	info, err := fs.Stat(c.Archive, name)
	if err != nil {
		return nil, "", fmt.Errorf("local blob: %w", err)
	}
	if info.Size() > maxBlobBytes {
		return nil, "", fmt.Errorf("local blob %s is larger than %d bytes", name, maxBlobBytes)
	}
	data, err := fs.ReadFile(c.Archive, name)
	return data, mediaType, err
}

// localBlobName is the archive path of a local blob access.
func (c *Component) localBlobName(rawAccess json.RawMessage) (string, string, error) {
	var a access
	if err := json.Unmarshal(rawAccess, &a); err != nil {
		return "", "", fmt.Errorf("access: %w", err)
	}
	ref := ""
	switch strings.TrimSuffix(strings.TrimSuffix(a.Type, "/v1"), "/v2") {
	case accessLocalFilesystemBlob:
		ref = a.Filename
	case accessLocalBlob, accessLocalOCIBlob:
		ref = a.LocalReference
		if ref == "" {
			ref = a.Digest
		}
	default:
		return "", "", fmt.Errorf("access type %q is not available locally (only local blobs of a component archive are)", a.Type)
	}
	if c.Archive == nil {
		return "", "", errors.New("local blob access needs a component archive, the descriptor was given inline")
	}
	name, err := blobName(ref)
	if err != nil {
		return "", "", err
	}
	if _, err := fs.Stat(c.Archive, name); errors.Is(err, fs.ErrNotExist) {
		// OCM's transport format stores "sha256:…" blobs as "sha256.…".
		// The rewritten name is checked again: ".:/x" becomes "../x".
		if name, err = blobName(strings.ReplaceAll(ref, ":", ".")); err != nil {
			return "", "", err
		}
	}
	return name, a.MediaType, nil
}

// blobName is the archive path of a blob reference, refused unless it
// names a file below blobs/.
func blobName(ref string) (string, error) {
	name := path.Join("blobs", ref)
	if !fs.ValidPath(name) || !strings.HasPrefix(name, "blobs/") || strings.Contains(ref, "\x00") {
		return "", fmt.Errorf("local blob reference %q escapes blobs/", ref)
	}
	return name, nil
}

// BlobPath returns the archive path of a resource's local blob, for
// callers that read it as a directory or an archive themselves.
func (c *Component) BlobPath(resource Resource) (string, string, error) {
	return c.localBlobName(resource.Access)
}
