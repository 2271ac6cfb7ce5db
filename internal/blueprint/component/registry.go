package component

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strings"
	"sync"

	"github.com/opencontainers/go-digest"
	ocispec "github.com/opencontainers/image-spec/specs-go/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// Media types of component descriptor artifacts (OCM's and component-cli's).
const (
	MediaTypeComponentConfig       = "application/vnd.ocm.software.component.config.v1+json"
	MediaTypeComponentConfigLegacy = "application/vnd.gardener.cloud.cnudie.component.config.v1+json"
	MediaTypeDescriptorTar         = "application/vnd.ocm.software.component-descriptor.v2+yaml+tar"
	MediaTypeDescriptorTarLegacy   = "application/vnd.gardener.cloud.cnudie.component-descriptor.v2+yaml+tar"
	mediaTypeDescriptorJSON        = "application/vnd.ocm.software.component-descriptor.v2+json"
	mediaTypeDescriptorJSONLegacy  = "application/vnd.gardener.cloud.cnudie.component-descriptor.v2+json"
	mediaTypeDescriptorYAML        = "application/vnd.ocm.software.component-descriptor.v2+yaml"
	mediaTypeDescriptorYAMLLegacy  = "application/vnd.gardener.cloud.cnudie.component-descriptor.v2+yaml"
)

// Registry loads component versions from OCI registries.
type Registry struct {
	Client *ocireg.Client
	// AllowUnverifiedDigests loads a reference whose pinned digest this
	// reader cannot verify (verifyReference), with a warning, instead of
	// failing: the provider's registry.allow_unverified_digests.
	AllowUnverifiedDigests bool
	// Overwrites substitute component versions for the references of
	// every component read (Landscaper's ComponentVersionOverwrites, from
	// the installation's Context); Overwritten applies them to a root.
	Overwrites Overwrites

	mu     sync.Mutex
	loaded map[string]*loadResult
}

// loadResult is one component version's artifact, read once per Registry
// however many installations name it.
type loadResult struct {
	done     chan struct{}
	artifact *ociArtifact
	data     []byte
	err      error
}

// VersionRef names a component version in a repository context.
type VersionRef struct {
	Context RepositorySpec
	Name    string
	Version string
}

func (v VersionRef) String() string { return v.Name + ":" + v.Version }

// Load reads a component version and, transitively, every component it
// references (in the same repository context), as Landscaper's
// `components` input holds them. References are read level by level, each
// level in parallel; a version referenced twice is one *Component.
func (r *Registry) Load(ctx context.Context, ref VersionRef) (*Component, error) {
	return r.LoadPinned(ctx, ref, Pins{})
}

// Pins are the manifest digests of component versions by "name:version",
// as an earlier command read them (Digests; Terraform state records them).
type Pins struct {
	Digests map[string]string
	// Strict reads exactly these digests (apply, refresh); otherwise they
	// stand in for tags only while the registry cannot be reached (plan).
	Strict bool
}

func (p Pins) of(ref VersionRef) ocireg.Pin {
	return ocireg.Pin{Digest: digest.Digest(p.Digests[ref.String()]), Strict: p.Strict}
}

// Bounds of a component tree read from a registry: descriptors are input
// from whoever can push to it, and each reference is a request.
const (
	// maxTreeVersions bounds the component versions of one tree.
	maxTreeVersions = 1000
	// maxTreeDepth bounds how deep references nest below the root.
	maxTreeDepth = 32
	// maxParallelReads bounds the component versions read at once.
	maxParallelReads = 16
)

// edge is one component reference: the owner's index-th.
type edge struct {
	owner *Component
	index int
	ref   VersionRef
	// overwritten: an overwrite substituted ref, so the digest the
	// reference declares is not the substitute's.
	overwritten bool
}

// Overwritten is ref with r's Overwrites applied: the component version
// an installation naming ref gets.
func (r *Registry) Overwritten(ref VersionRef) VersionRef {
	if r == nil {
		return ref
	}
	out, _ := r.Overwrites.Apply(ref)
	return out
}

// LoadPinned is Load with the digests of an earlier command.
func (r *Registry) LoadPinned(ctx context.Context, ref VersionRef, pins Pins) (*Component, error) {
	root, err := r.component(ctx, ref, pins.of(ref))
	if err != nil {
		return nil, err
	}
	byKey := map[string]*Component{ref.String(): root}
	level := []*Component{root}
	for depth := 1; len(level) > 0; depth++ {
		var edges []edge
		for _, c := range level {
			refs := c.Descriptor.Component.ComponentReferences
			if len(refs) > 0 && depth > maxTreeDepth {
				return nil, fmt.Errorf("component %s: its references are nested more than %d levels below %s", c.key(), maxTreeDepth, ref)
			}
			c.Referenced = make([]*Component, len(refs))
			c.referencesInOrder = true
			for i, cr := range refs {
				to, overwritten := r.Overwrites.Apply(VersionRef{Context: ref.Context, Name: cr.ComponentName, Version: cr.Version})
				edges = append(edges, edge{c, i, to, overwritten})
			}
		}
		var todo []int // the edges whose version this level reads
		for i, e := range edges {
			if _, ok := byKey[e.ref.String()]; ok {
				continue
			}
			byKey[e.ref.String()] = nil // claimed by this level
			if len(byKey) > maxTreeVersions {
				return nil, fmt.Errorf("component %s: its references make the tree of %s hold more than %d component versions", e.owner.key(), ref, maxTreeVersions)
			}
			todo = append(todo, i)
		}
		if err := r.readEdges(ctx, edges, todo, pins); err != nil {
			return nil, err
		}
		var next []*Component
		for _, e := range edges {
			if child := e.owner.Referenced[e.index]; child != nil && byKey[e.ref.String()] == nil {
				byKey[e.ref.String()] = child
				next = append(next, child)
			}
		}
		if err := r.verifyEdges(edges, byKey); err != nil {
			return nil, err
		}
		level = next
	}
	return root, nil
}

// readEdges reads the versions of edges[todo], maxParallelReads at a
// time, into their owners' Referenced; the first failure stops starting
// more.
func (r *Registry) readEdges(ctx context.Context, edges []edge, todo []int, pins Pins) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	errs := make([]error, len(edges))
	slots := make(chan struct{}, maxParallelReads)
	var wg sync.WaitGroup
	for _, i := range todo {
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		e := edges[i]
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			child, err := r.component(ctx, e.ref, pins.of(e.ref))
			if err != nil && (ctx.Err() == nil || !errors.Is(err, context.Canceled)) {
				errs[i] = fmt.Errorf("component %s references %s: %w", e.owner.key(), e.ref, err)
				cancel() // the others stopped by it are not reported
			}
			e.owner.Referenced[e.index] = child // distinct slots, no lock needed
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	return ctx.Err()
}

// verifyEdges sets every edge's child (read at this level or before) and
// checks the digest its reference declares.
func (r *Registry) verifyEdges(edges []edge, byKey map[string]*Component) error {
	errs := make([]error, len(edges))
	for i, e := range edges {
		child := byKey[e.ref.String()]
		e.owner.Referenced[e.index] = child
		if e.overwritten {
			continue
		}
		errs[i] = verifyReference(e.owner, e.index, child.oci.descriptor)
		if u := (*unverifiableError)(nil); errors.As(errs[i], &u) && r.AllowUnverifiedDigests {
			r.Client.Warn(u.warning())
			errs[i] = nil
		}
	}
	return errors.Join(errs...)
}

// key is "name:version".
func (c *Component) key() string {
	return c.Descriptor.Component.Name + ":" + c.Descriptor.Component.Version
}

// component builds a fresh *Component of one version (without its
// references) from the artifact read once per Registry.
func (r *Registry) component(ctx context.Context, ref VersionRef, pin ocireg.Pin) (*Component, error) {
	key := fmt.Sprintf("%s|%s|%s|%s|%s|%t", ref.Context.BaseURL, ref.Context.SubPath, ref.Context.ComponentNameMapping, ref, pin.Digest, pin.Strict)
	r.mu.Lock()
	if r.loaded == nil {
		r.loaded = map[string]*loadResult{}
	}
	res, ok := r.loaded[key]
	if !ok {
		res = &loadResult{done: make(chan struct{})}
		r.loaded[key] = res
	}
	r.mu.Unlock()
	if ok {
		select {
		case <-res.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	} else {
		res.artifact, res.data, res.err = r.read(ctx, ref, pin)
		close(res.done)
	}
	if res.err != nil {
		return nil, res.err
	}
	c, err := FromInline(res.data)
	if err != nil {
		return nil, fmt.Errorf("component %s: %w", ref, err)
	}
	if got := c.Descriptor.Component; got.Name != ref.Name || got.Version != ref.Version {
		return nil, fmt.Errorf("component %s: the artifact holds %s:%s", ref, got.Name, got.Version)
	}
	c.Referenced = nil // references come from the registry, not from further documents
	c.registry = r
	rc := ref.Context
	c.context = &rc
	c.oci = res.artifact
	return c, nil
}

// read fetches a component version's manifest and descriptor.
func (r *Registry) read(ctx context.Context, ref VersionRef, pin ocireg.Pin) (*ociArtifact, []byte, error) {
	repo, tag, err := ref.Context.Reference(ref.Name, ref.Version)
	if err != nil {
		return nil, nil, fmt.Errorf("component %s: %w", ref, err)
	}
	desc, err := r.Client.ResolvePinned(ctx, repo+":"+tag, pin)
	if err != nil {
		return nil, nil, fmt.Errorf("component %s: descriptor artifact: %w", ref, err)
	}
	manifest, err := r.manifest(ctx, repo, desc)
	if err != nil {
		return nil, nil, fmt.Errorf("component %s: %w", ref, err)
	}
	data, err := r.descriptorBytes(ctx, repo, manifest)
	if err != nil {
		return nil, nil, fmt.Errorf("component %s: %w", ref, err)
	}
	return &ociArtifact{repository: repo, manifest: manifest, digest: desc.Digest.String(), descriptor: data}, data, nil
}

// manifest fetches and decodes an image manifest.
func (r *Registry) manifest(ctx context.Context, repo string, desc ocispec.Descriptor) (ocispec.Manifest, error) {
	var m ocispec.Manifest
	if desc.MediaType != ocispec.MediaTypeImageManifest && desc.MediaType != "application/vnd.docker.distribution.manifest.v2+json" {
		return m, fmt.Errorf("%s@%s is a %q, not an image manifest", repo, desc.Digest, desc.MediaType)
	}
	data, err := r.Client.Fetch(ctx, repo, desc)
	if err != nil {
		return m, err
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("%s@%s: manifest: %w", repo, desc.Digest, err)
	}
	return m, nil
}

// descriptorBytes reads the descriptor layer the artifact's config names
// (or, without one, the first layer of a descriptor media type).
func (r *Registry) descriptorBytes(ctx context.Context, repo string, m ocispec.Manifest) ([]byte, error) {
	var layer *ocispec.Descriptor
	switch m.Config.MediaType {
	case MediaTypeComponentConfig, MediaTypeComponentConfigLegacy:
		data, err := r.Client.Fetch(ctx, repo, m.Config)
		if err != nil {
			return nil, fmt.Errorf("component config: %w", err)
		}
		var cfg struct {
			ComponentDescriptorLayer *ocispec.Descriptor `json:"componentDescriptorLayer"`
		}
		if err := json.Unmarshal(data, &cfg); err != nil {
			return nil, fmt.Errorf("component config: %w", err)
		}
		layer = cfg.ComponentDescriptorLayer
	default:
		return nil, fmt.Errorf("artifact config has media type %q, not a component descriptor config (%s)", m.Config.MediaType, MediaTypeComponentConfig)
	}
	if layer == nil || layer.Digest == "" {
		return nil, errors.New("component config names no componentDescriptorLayer")
	}
	data, err := r.Client.Fetch(ctx, repo, *layer)
	if err != nil {
		return nil, fmt.Errorf("descriptor layer: %w", err)
	}
	switch layer.MediaType {
	case MediaTypeDescriptorTar, MediaTypeDescriptorTarLegacy, "application/vnd.oci.gardener.cloud.cnudie.component-descriptor.config.v2+yaml+tar":
		return descriptorFromTar(data)
	case mediaTypeDescriptorJSON, mediaTypeDescriptorJSONLegacy, mediaTypeDescriptorYAML, mediaTypeDescriptorYAMLLegacy:
		return data, nil
	}
	return nil, fmt.Errorf("descriptor layer has media type %q, not a component descriptor", layer.MediaType)
}

// descriptorFromTar returns component-descriptor.yaml of a descriptor tar.
func descriptorFromTar(data []byte) ([]byte, error) {
	tr := tar.NewReader(bytes.NewReader(data))
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("descriptor layer holds no %s", descriptorFile)
		}
		if err != nil {
			return nil, fmt.Errorf("descriptor layer is not a tar: %w", err)
		}
		if path.Clean(strings.TrimPrefix(hdr.Name, "/")) == descriptorFile {
			return io.ReadAll(io.LimitReader(tr, maxBlobBytes))
		}
	}
}

// Digests returns the manifest digest of every component version in the
// tree read from a registry, by "name:version"; empty for a component
// that is not from a registry. A tag that moved changes it.
func (c *Component) Digests() map[string]string {
	out := map[string]string{}
	for _, x := range c.Tree() {
		if x.oci != nil {
			out[x.Descriptor.Component.Name+":"+x.Descriptor.Component.Version] = x.oci.digest
		}
	}
	return out
}

// DigestSummary is Digests as one stable line ("name:version@digest, …").
func (c *Component) DigestSummary() string {
	d := c.Digests()
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "@" + d[k]
	}
	return strings.Join(parts, ", ")
}
