// Package component reads component descriptors of schema version v2 (the
// format Landscaper's `cd` template input and `cd://` references use) and
// OCM's ocm.software/v3alpha1 (converted to v2) from inline YAML/JSON, a
// local component archive or an OCI registry, and answers the resource and
// component look-ups templates make. It deliberately parses the format
// itself instead of pulling in the OCM library.
package component

import (
	"encoding/json"
	"fmt"

	"sigs.k8s.io/yaml"
)

// SchemaVersionV2 is the schema version of the model every descriptor is
// read into.
const SchemaVersionV2 = "v2"

// Descriptor is a v2 component descriptor document.
type Descriptor struct {
	Meta      Meta `json:"meta"`
	Component Spec `json:"component"`
}

// Meta carries the schema version of a descriptor.
type Meta struct {
	SchemaVersion string `json:"schemaVersion"`
}

// Spec is the component part of a descriptor.
type Spec struct {
	Name                string            `json:"name"`
	Version             string            `json:"version"`
	Provider            json.RawMessage   `json:"provider,omitempty"`
	RepositoryContexts  []json.RawMessage `json:"repositoryContexts,omitempty"`
	Labels              []Label           `json:"labels,omitempty"`
	Sources             []json.RawMessage `json:"sources,omitempty"`
	ComponentReferences []Reference       `json:"componentReferences,omitempty"`
	Resources           []Resource        `json:"resources,omitempty"`
}

// Label is a name/value pair attached to components and resources.
type Label struct {
	Name  string          `json:"name"`
	Value json.RawMessage `json:"value"`
}

// Reference points at another component version by name.
type Reference struct {
	Name          string            `json:"name"`
	ComponentName string            `json:"componentName"`
	Version       string            `json:"version"`
	ExtraIdentity map[string]string `json:"extraIdentity,omitempty"`
	Labels        []Label           `json:"labels,omitempty"`
	// Digest is the digest of the referenced component descriptor.
	Digest json.RawMessage `json:"digest,omitempty"`
}

// Resource is an artifact of a component; Access says where its content is.
type Resource struct {
	Name          string            `json:"name"`
	Version       string            `json:"version"`
	Type          string            `json:"type"`
	Relation      string            `json:"relation,omitempty"`
	ExtraIdentity map[string]string `json:"extraIdentity,omitempty"`
	Labels        []Label           `json:"labels,omitempty"`
	Access        json.RawMessage   `json:"access,omitempty"`
	SrcRefs       []json.RawMessage `json:"srcRefs,omitempty"`
	Digest        json.RawMessage   `json:"digest,omitempty"`
}

// Identity is the resource's identity attributes: name, version and any
// extra identity, as OCM defines resource identities.
func (r Resource) Identity() map[string]string {
	id := map[string]string{"name": r.Name}
	for k, v := range r.ExtraIdentity {
		id[k] = v
	}
	return id
}

// ParseDescriptor decodes a v2 or v3alpha1 descriptor from YAML or JSON and
// returns it in the v2 model with the generic form templates receive as `cd`.
func ParseDescriptor(data []byte) (*Descriptor, map[string]any, error) {
	jsonData, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, nil, fmt.Errorf("component descriptor is not valid YAML or JSON: %w", err)
	}
	var version struct {
		APIVersion string `json:"apiVersion"`
	}
	if json.Unmarshal(jsonData, &version) == nil && version.APIVersion != "" {
		if version.APIVersion != SchemaVersionV3Alpha1 {
			return nil, nil, fmt.Errorf("component descriptor has apiVersion %q, only %q (or meta.schemaVersion %q) is supported",
				version.APIVersion, SchemaVersionV3Alpha1, SchemaVersionV2)
		}
		if jsonData, err = convertV3Alpha1(jsonData); err != nil {
			return nil, nil, err
		}
	}
	var d Descriptor
	if err := json.Unmarshal(jsonData, &d); err != nil {
		return nil, nil, fmt.Errorf("component descriptor does not match schema v2: %w", err)
	}
	if d.Meta.SchemaVersion != SchemaVersionV2 {
		return nil, nil, fmt.Errorf("component descriptor has schema version %q, only %q (or apiVersion %q) is supported",
			d.Meta.SchemaVersion, SchemaVersionV2, SchemaVersionV3Alpha1)
	}
	if d.Component.Name == "" || d.Component.Version == "" {
		return nil, nil, fmt.Errorf("component descriptor needs a component name and version")
	}
	var generic map[string]any
	if err := json.Unmarshal(jsonData, &generic); err != nil {
		return nil, nil, fmt.Errorf("component descriptor is not an object: %w", err)
	}
	return &d, generic, nil
}
