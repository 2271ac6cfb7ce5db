package component

import (
	"encoding/json"
	"errors"
	"fmt"
)

// SchemaVersionV3Alpha1 is the apiVersion of OCM's v3alpha1 descriptors.
// They are read into the v2 model, as Landscaper does: templates see `cd`
// in schema v2 whatever the descriptor was stored as.
const SchemaVersionV3Alpha1 = "ocm.software/v3alpha1"

// v3alpha1 is the part of an OCM v3alpha1 descriptor that has a v2
// counterpart. Element lists stay generic: resources and sources keep
// their shape, only the component-level fields move.
type v3alpha1 struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name         string          `json:"name"`
		Version      string          `json:"version"`
		Labels       json.RawMessage `json:"labels,omitempty"`
		Provider     json.RawMessage `json:"provider,omitempty"`
		CreationTime json.RawMessage `json:"creationTime,omitempty"`
	} `json:"metadata"`
	RepositoryContexts json.RawMessage `json:"repositoryContexts,omitempty"`
	Spec               struct {
		Resources  json.RawMessage `json:"resources,omitempty"`
		Sources    json.RawMessage `json:"sources,omitempty"`
		References json.RawMessage `json:"references,omitempty"`
	} `json:"spec"`
	Signatures    json.RawMessage `json:"signatures,omitempty"`
	NestedDigests json.RawMessage `json:"nestedDigests,omitempty"`
}

// convertV3Alpha1 rewrites a v3alpha1 descriptor (JSON) as a v2 one:
// metadata becomes component, spec.references become componentReferences,
// and a provider object becomes v2's provider string (its name, or the
// object as JSON when it carries labels, which is OCM's own conversion).
func convertV3Alpha1(jsonData []byte) ([]byte, error) {
	var in v3alpha1
	if err := json.Unmarshal(jsonData, &in); err != nil {
		return nil, fmt.Errorf("component descriptor does not match schema %s: %w", SchemaVersionV3Alpha1, err)
	}
	if in.Kind != "" && in.Kind != "ComponentVersion" {
		return nil, fmt.Errorf("component descriptor of apiVersion %s has kind %q, want ComponentVersion", SchemaVersionV3Alpha1, in.Kind)
	}
	provider, err := providerName(in.Metadata.Provider)
	if err != nil {
		return nil, err
	}
	comp := map[string]any{
		"name":                in.Metadata.Name,
		"version":             in.Metadata.Version,
		"provider":            provider,
		"repositoryContexts":  listOrEmpty(in.RepositoryContexts),
		"sources":             listOrEmpty(in.Spec.Sources),
		"componentReferences": listOrEmpty(in.Spec.References),
		"resources":           listOrEmpty(in.Spec.Resources),
	}
	if len(in.Metadata.Labels) > 0 {
		comp["labels"] = in.Metadata.Labels
	}
	if len(in.Metadata.CreationTime) > 0 {
		comp["creationTime"] = in.Metadata.CreationTime
	}
	out := map[string]any{
		"meta":      map[string]string{"schemaVersion": SchemaVersionV2},
		"component": comp,
	}
	if len(in.Signatures) > 0 {
		out["signatures"] = in.Signatures
	}
	if len(in.NestedDigests) > 0 {
		out["nestedDigests"] = in.NestedDigests
	}
	return json.Marshal(out)
}

func providerName(raw json.RawMessage) (string, error) {
	if len(raw) == 0 {
		return "", nil
	}
	var p struct {
		Name   string            `json:"name"`
		Labels []json.RawMessage `json:"labels"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		return "", errors.New("component descriptor: metadata.provider must be an object with a name")
	}
	if len(p.Labels) == 0 {
		return p.Name, nil
	}
	return string(raw), nil
}

// listOrEmpty keeps a JSON list as is and turns an absent one into [], so
// templates find the same keys in a converted descriptor as in a v2 one.
func listOrEmpty(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage("[]")
	}
	return raw
}
