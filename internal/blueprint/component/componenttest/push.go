// Package componenttest pushes component versions and artifacts into OCI
// repositories (an in-memory store or a real registry), laid out as OCM
// and component-cli lay them out, for tests of reading them back.
package componenttest

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"fmt"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
	"oras.land/oras-go/v2"
	"oras.land/oras-go/v2/content/memory"
	"oras.land/oras-go/v2/registry/remote"
	"oras.land/oras-go/v2/registry/remote/auth"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// Opener opens a repository ("host/path") for writing.
type Opener func(repository string) (oras.Target, error)

// Memory is a set of in-memory repositories by name.
type Memory map[string]*memory.Store

// Open returns the repository, creating it.
func (m Memory) Open(name string) (oras.Target, error) {
	if m[name] == nil {
		m[name] = memory.New()
	}
	return m[name], nil
}

// Read opens a repository for ocireg.Options.Repository.
func (m Memory) Read(name string) (ocireg.Target, error) {
	s, ok := m[name]
	if !ok {
		return nil, fmt.Errorf("repository %s: not found", name)
	}
	return s, nil
}

// Remote opens repositories of a real registry; plainHTTP for a registry
// on loopback without TLS.
func Remote(username, password string) Opener {
	return func(name string) (oras.Target, error) {
		repo, err := remote.NewRepository(name)
		if err != nil {
			return nil, err
		}
		repo.PlainHTTP = true
		if username != "" {
			repo.Client = &auth.Client{Credential: auth.StaticCredential(repo.Reference.Registry,
				auth.Credential{Username: username, Password: password})}
		}
		return repo, nil
	}
}

// Layer is one blob.
type Layer struct {
	MediaType string
	Data      []byte
}

// Digest is the "sha256:…" digest of data.
func Digest(data []byte) string { return digest.FromBytes(data).String() }

// Version is a component version to push: its descriptor (v2 or v3alpha1
// YAML, naming local blobs by Digest of their data) and its local blobs.
type Version struct {
	Descriptor string
	Blobs      []Layer
	// Legacy uses component-cli's media types instead of OCM's.
	Legacy bool
}

// PushVersion pushes v as "<repository of name>:<version>" of ctx.
func PushVersion(ctx context.Context, open Opener, rc component.RepositorySpec, name, version string, v Version) (ocispec.Descriptor, error) {
	repo, tag, err := rc.Reference(name, version)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	configType, layerType := component.MediaTypeComponentConfig, component.MediaTypeDescriptorTar
	if v.Legacy {
		configType, layerType = component.MediaTypeComponentConfigLegacy, component.MediaTypeDescriptorTarLegacy
	}
	descTar, err := tarOf("component-descriptor.yaml", []byte(v.Descriptor))
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	descLayer := Layer{MediaType: layerType, Data: descTar}
	cfg, err := json.Marshal(map[string]any{"componentDescriptorLayer": describe(descLayer)})
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	return PushArtifact(ctx, open, repo+":"+tag, Layer{MediaType: configType, Data: cfg}, append([]Layer{descLayer}, v.Blobs...)...)
}

// PushArtifact pushes an image manifest with config and layers and tags it
// ("host/repo:tag"); it returns the manifest's descriptor.
func PushArtifact(ctx context.Context, open Opener, ref string, config Layer, layers ...Layer) (ocispec.Descriptor, error) {
	repoName, tag := splitRef(ref)
	target, err := open(repoName)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	m := ocispec.Manifest{MediaType: ocispec.MediaTypeImageManifest, Config: describe(config)}
	m.SchemaVersion = 2
	for _, l := range append([]Layer{config}, layers...) {
		d := describe(l)
		if ok, _ := target.Exists(ctx, d); !ok {
			if err := target.Push(ctx, d, bytes.NewReader(l.Data)); err != nil {
				return ocispec.Descriptor{}, fmt.Errorf("push %s: %w", d.Digest, err)
			}
		}
	}
	for _, l := range layers {
		m.Layers = append(m.Layers, describe(l))
	}
	data, err := json.Marshal(m)
	if err != nil {
		return ocispec.Descriptor{}, err
	}
	md := describe(Layer{MediaType: ocispec.MediaTypeImageManifest, Data: data})
	if err := target.Push(ctx, md, bytes.NewReader(data)); err != nil {
		return ocispec.Descriptor{}, fmt.Errorf("push manifest: %w", err)
	}
	if mem, ok := target.(*memory.Store); ok {
		// A registry resolves a manifest by digest; the in-memory store
		// only by tag, so the digest is a tag too.
		if err := mem.Tag(ctx, md, md.Digest.String()); err != nil {
			return ocispec.Descriptor{}, err
		}
	}
	return md, target.Tag(ctx, md, tag)
}

func describe(l Layer) ocispec.Descriptor {
	return ocispec.Descriptor{MediaType: l.MediaType, Digest: digest.FromBytes(l.Data), Size: int64(len(l.Data))}
}

func splitRef(ref string) (string, string) {
	for i := len(ref) - 1; i >= 0 && ref[i] != '/'; i-- {
		if ref[i] == ':' {
			return ref[:i], ref[i+1:]
		}
	}
	return ref, "latest"
}

// Tar packs files (path → content) into a tar archive.
func Tar(files map[string]string) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, name := range sortedKeys(files) {
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: 0o644, Size: int64(len(files[name])), Typeflag: tar.TypeReg}); err != nil {
			return nil, err
		}
		if _, err := tw.Write([]byte(files[name])); err != nil {
			return nil, err
		}
	}
	err := tw.Close()
	return buf.Bytes(), err
}

func tarOf(name string, data []byte) ([]byte, error) {
	return Tar(map[string]string{name: string(data)})
}
