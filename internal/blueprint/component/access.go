package component

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// Access types that point into OCI registries.
const (
	accessOCIArtifact          = "ociArtifact"
	accessOCIRegistry          = "ociRegistry"
	accessOCIBlob              = "ociBlob"
	accessRelativeOCIReference = "relativeOciReference"
)

// fetchTimeout bounds one resource read made without a caller's context
// (template functions and schema loaders have none).
const fetchTimeout = 2 * time.Minute

// Layer media types picked from a multi-layer artifact, most specific first.
var preferredLayers = []string{
	"application/vnd.cncf.helm.chart.content.v1.tar+gzip",
	"application/vnd.gardener.landscaper.blueprint.layer.v1.tar+gzip",
	"application/vnd.gardener.landscaper.blueprint.v1+tar+gzip",
	"application/vnd.gardener.landscaper.blueprint.layer.v1.tar",
	"application/vnd.gardener.landscaper.jsonschema.layer.v1.json",
}

// remoteAccess holds the fields of every access type this package reads.
type remoteAccess struct {
	Type           string `json:"type"`
	ImageReference string `json:"imageReference"`
	Ref            string `json:"ref"`
	Reference      string `json:"reference"`
	LocalReference string `json:"localReference"`
	Digest         string `json:"digest"`
	MediaType      string `json:"mediaType"`
	Size           int64  `json:"size"`
}

// Blob is the content of a resource.
type Blob struct {
	Data      []byte
	MediaType string
}

// Fetch returns the content of one of c's resources, from wherever its
// access points: a local blob of the archive or of the component's own
// artifact, or an artifact or blob in a registry. When the resource
// declares a digest, the content is checked against it. Errors name the
// component version and the resource.
func (c *Component) Fetch(ctx context.Context, res Resource) (Blob, error) {
	if c == nil {
		return Blob{}, ErrNoComponent
	}
	b, artifactDigest, err := c.fetchAccess(ctx, res.Access)
	if err == nil {
		err = verifyResourceDigest(res.Digest, b.Data, artifactDigest)
	}
	which := fmt.Sprintf("component %s:%s resource %q", c.Descriptor.Component.Name, c.Descriptor.Component.Version, res.Name)
	if u := (*unverifiableError)(nil); errors.As(err, &u) {
		u.which = which
		if c.registry != nil && c.registry.AllowUnverifiedDigests {
			if c.registry.Client != nil {
				c.registry.Client.Warn(u.warning())
			}
			return b, nil
		}
		return Blob{}, u
	}
	if err != nil {
		return Blob{}, fmt.Errorf("%s: %w", which, err)
	}
	return b, nil
}

// fetchAccess reads an access; artifactDigest is the manifest digest when
// the access named an OCI artifact.
func (c *Component) fetchAccess(ctx context.Context, raw json.RawMessage) (b Blob, artifactDigest string, err error) {
	var a remoteAccess
	if err := json.Unmarshal(raw, &a); err != nil {
		return Blob{}, "", fmt.Errorf("access: %w", err)
	}
	switch strings.TrimSuffix(strings.TrimSuffix(a.Type, "/v1"), "/v2") {
	case accessLocalBlob, accessLocalOCIBlob:
		if c.oci != nil {
			return c.ownLayer(ctx, a)
		}
	case accessOCIArtifact, accessOCIRegistry:
		return c.artifact(ctx, a.ImageReference)
	case accessRelativeOCIReference:
		if c.context == nil {
			return Blob{}, "", errors.New("relativeOciReference needs a component read from a registry")
		}
		ref, err := c.context.Resolve(a.Reference)
		if err != nil {
			return Blob{}, "", err
		}
		return c.artifact(ctx, ref)
	case accessOCIBlob:
		return c.ociBlob(ctx, a)
	}
	data, mediaType, err := c.readLocalBlob(raw)
	return Blob{Data: data, MediaType: mediaType}, "", err
}

// ownLayer reads a local blob of a component read from a registry: a
// layer of its own artifact, and only that.
func (c *Component) ownLayer(ctx context.Context, a remoteAccess) (Blob, string, error) {
	ref := a.LocalReference
	if ref == "" {
		ref = a.Digest
	}
	for _, l := range c.oci.manifest.Layers {
		if l.Digest.String() != ref {
			continue
		}
		if l.MediaType == ocispec.MediaTypeImageManifest {
			return c.artifact(ctx, c.oci.repository+"@"+ref)
		}
		data, err := c.registry.Client.Fetch(ctx, c.oci.repository, l)
		mediaType := a.MediaType
		if mediaType == "" {
			mediaType = l.MediaType
		}
		return Blob{Data: data, MediaType: mediaType}, "", err
	}
	return Blob{}, "", fmt.Errorf("local blob %s is not a layer of the component's artifact %s@%s", ref, c.oci.repository, c.oci.digest)
}

func (c *Component) artifact(ctx context.Context, ref string) (Blob, string, error) {
	if c.registry == nil {
		return Blob{}, "", fmt.Errorf("artifact %s: no OCI registry access is configured", ref)
	}
	return c.registry.Artifact(ctx, ref)
}

// Artifact reads an OCI artifact by reference ("[oci://]host/repo:tag"
// or "…@sha256:…"): its one layer, or the layer of a known media type (a
// Helm chart, a blueprint, a schema). It also returns the manifest digest.
func (r *Registry) Artifact(ctx context.Context, ref string) (Blob, string, error) {
	ref = strings.TrimPrefix(ref, "oci://")
	desc, err := r.Client.Resolve(ctx, ref)
	if err != nil {
		return Blob{}, "", err
	}
	repo := repositoryOf(ref)
	m, err := r.manifest(ctx, repo, desc)
	if err != nil {
		return Blob{}, "", err
	}
	layer, err := pickLayer(ref, m.Layers)
	if err != nil {
		return Blob{}, "", err
	}
	data, err := r.Client.Fetch(ctx, repo, layer)
	return Blob{Data: data, MediaType: layer.MediaType}, desc.Digest.String(), err
}

func pickLayer(ref string, layers []ocispec.Descriptor) (ocispec.Descriptor, error) {
	for _, want := range preferredLayers {
		for _, l := range layers {
			if l.MediaType == want {
				return l, nil
			}
		}
	}
	if len(layers) == 1 {
		return layers[0], nil
	}
	return ocispec.Descriptor{}, fmt.Errorf("artifact %s has %d layers and none of a known media type", ref, len(layers))
}

// repositoryOf strips the tag and digest of "host/repo[:tag][@digest]".
func repositoryOf(ref string) string {
	if i := strings.Index(ref, "@"); i >= 0 {
		ref = ref[:i]
	}
	if i := strings.LastIndex(ref, ":"); i > strings.LastIndex(ref, "/") {
		ref = ref[:i]
	}
	return ref
}

// ociBlob reads a blob of another repository by digest.
func (c *Component) ociBlob(ctx context.Context, a remoteAccess) (Blob, string, error) {
	if c.registry == nil {
		return Blob{}, "", fmt.Errorf("blob %s@%s: no OCI registry access is configured", a.Ref, a.Digest)
	}
	d, err := digest.Parse(a.Digest)
	if err != nil {
		return Blob{}, "", fmt.Errorf("ociBlob digest %q: %w", a.Digest, err)
	}
	desc := ocispec.Descriptor{MediaType: a.MediaType, Digest: d, Size: a.Size}
	data, err := c.registry.Client.Fetch(ctx, repositoryOf(strings.TrimPrefix(a.Ref, "oci://")), desc)
	return Blob{Data: data, MediaType: a.MediaType}, "", err
}

// verifyResourceDigest checks content against the digest a resource
// declares (OCM's digest spec). A digest that cannot be checked fails
// closed, as a reference's does (unverifiableError): one of another hash
// or normalisation, one that is not a digest spec, and an
// ociArtifactDigest of content that was not read as an OCI artifact. A
// resource without a digest, or marked as excluded from signatures,
// declares nothing to check.
func verifyResourceDigest(raw json.RawMessage, data []byte, artifactDigest string) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	unverifiable := func(why string, args ...any) error {
		return &unverifiableError{which: "resource digest", why: fmt.Sprintf(why, args...)}
	}
	var spec digestSpec
	if err := json.Unmarshal(raw, &spec); err != nil || !spec.complete() {
		return unverifiable("the digest is not an object of hashAlgorithm, normalisationAlgorithm and value")
	}
	if spec.NormalisationAlgorithm == excludeFromSignature && spec.HashAlgorithm == noDigest && spec.Value == noDigest {
		return nil
	}
	if !spec.isSHA256() {
		return unverifiable("it is %s; only SHA-256 is computed", spec.HashAlgorithm)
	}
	var got string
	switch spec.NormalisationAlgorithm {
	case normalisationGenericBlobV1:
		sum := sha256.Sum256(data)
		got = hex.EncodeToString(sum[:])
	case normalisationOCIArtifactV1:
		if artifactDigest == "" {
			return unverifiable("it is %s, but the content was not read as an OCI artifact, whose manifest digest that is", spec.NormalisationAlgorithm)
		}
		got = strings.TrimPrefix(artifactDigest, "sha256:")
	default:
		return unverifiable("it is over %s; only %s and %s are computed", spec.NormalisationAlgorithm, normalisationGenericBlobV1, normalisationOCIArtifactV1)
	}
	if !strings.EqualFold(got, spec.Value) {
		return fmt.Errorf("digest mismatch: the descriptor declares sha256 %s, the content has %s", spec.Value, got)
	}
	return nil
}

// Normalisations of a resource's digest this package computes, and OCM's
// marks of a resource whose content is excluded from signatures.
const (
	normalisationGenericBlobV1 = "genericBlobDigest/v1"
	normalisationOCIArtifactV1 = "ociArtifactDigest/v1"
	excludeFromSignature       = "EXCLUDE-FROM-SIGNATURE"
	noDigest                   = "NO-DIGEST"
)

// text returns a blob as templates and schema loaders read it: a gzipped
// JSON document (e.g. a jsonschema layer "+gzip") decompressed.
func (b Blob) text() ([]byte, error) {
	if !strings.Contains(b.MediaType, "json") || !strings.HasSuffix(b.MediaType, "gzip") || !bytes.HasPrefix(b.Data, []byte{0x1f, 0x8b}) {
		return b.Data, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(b.Data))
	if err != nil {
		return nil, err
	}
	defer func() { _ = zr.Close() }()
	return io.ReadAll(io.LimitReader(zr, maxExtractedBytes))
}

// fetchContext bounds a read made without a caller's context.
func fetchContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), fetchTimeout)
}
