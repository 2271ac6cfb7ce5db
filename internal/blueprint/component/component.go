package component

import (
	"io/fs"

	ocispec "github.com/opencontainers/image-spec/specs-go/v1"
)

// Component is the component context of one installation: its descriptor,
// the descriptors it references when they are known, and where local blobs
// are read from. A nil *Component means "no component descriptor".
type Component struct {
	Descriptor *Descriptor
	// Generic is the descriptor as templates see it (`cd`).
	Generic map[string]any
	// Referenced are the descriptors of referenced components that are
	// available locally (inline or in the same archive); look-ups through a
	// reference that is not here fail with a clear error.
	Referenced []*Component
	// Archive is the component archive directory (component-descriptor.yaml
	// plus blobs/), nil for an inline descriptor.
	Archive fs.FS
	// Definition is how the installation referenced the descriptor
	// (`componentDescriptorDef`), e.g. {"inline": {...}}.
	Definition map[string]any
	// referencesInOrder says Referenced[i] is the component of the i-th
	// component reference (a tree read from a registry), which, with
	// Overwrites, may be another version than the reference names.
	referencesInOrder bool
	// NestedInline says the descriptor came from the
	// InlineDescriptorLabel of a component reference: an installation
	// whose blueprint it holds gets it inline, as in Landscaper.
	NestedInline bool

	// registry reads resources that live in OCI registries; nil when
	// only local blobs can be read.
	registry *Registry
	// context is the repository context the component was read from, the
	// base of relativeOciReference accesses; nil for local descriptors.
	context *RepositorySpec
	// oci is the component's own artifact when read from a registry:
	// its local blobs are layers of it.
	oci *ociArtifact
}

// ociArtifact is a component version's descriptor artifact.
type ociArtifact struct {
	repository string
	manifest   ocispec.Manifest
	digest     string
	// descriptor is the component descriptor as stored (YAML or JSON).
	descriptor []byte
}

// UseRegistry lets a locally read component (inline or archive) read
// resources whose access points into an OCI registry.
func (c *Component) UseRegistry(r *Registry) {
	if c == nil {
		return
	}
	for _, x := range c.Tree() {
		if x.registry == nil {
			x.registry = r
		}
	}
}

// Values returns the `cd` input of templates (nil without a component).
func (c *Component) Values() map[string]any {
	if c == nil {
		return nil
	}
	return c.Generic
}

// List returns the `components` input: a v2 component descriptor list
// holding this component and every locally known referenced component.
func (c *Component) List() map[string]any {
	if c == nil {
		return nil
	}
	var all []any
	seen := map[string]bool{}
	var walk func(*Component)
	walk = func(x *Component) {
		key := x.Descriptor.Component.Name + ":" + x.Descriptor.Component.Version
		if seen[key] {
			return
		}
		seen[key] = true
		all = append(all, x.Generic)
		for _, r := range x.Referenced {
			walk(r)
		}
	}
	walk(c)
	return map[string]any{
		"meta":       map[string]any{"schemaVersion": SchemaVersionV2},
		"components": all,
	}
}
