package blueprint

// This file is the contract the engine and the provider code against.
// Signatures here are stable; bodies live in the files beside it.

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// Source says where a root blueprint comes from: exactly one of Dir
// (a directory holding blueprint.yaml), Inline (path → file content) or
// ResourceName (a blueprint resource of the component descriptor).
type Source struct {
	Dir          string
	Inline       map[string]string
	ResourceName string
}

// ComponentSource says where the component descriptor comes from: at most
// one of Loaded, Dir (a local component archive directory: component-descriptor.yaml
// plus blobs/) or Inline (the descriptor as YAML or JSON). Both empty means
// the installation has no component descriptor. Loaded is a component
// the caller already read (from an OCI registry). Registry, when set,
// lets resources point into OCI registries.
type ComponentSource struct {
	Dir      string
	Inline   string
	Loaded   *Component
	Registry *component.Registry
}

// Imports are the values an installation receives, by import name.
type Imports struct {
	Data        map[string]any
	Targets     map[string]api.Target
	TargetLists map[string][]api.Target
	TargetMaps  map[string]map[string]api.Target
}

// RenderInput is what the Init phase of one installation renders from.
type RenderInput struct {
	Imports   Imports
	Component *Component
	// State is the `state` output of each execution in the previous job,
	// keyed as the previous Rendered.State / Exported.State keyed it.
	State map[string]json.RawMessage
}

// Rendered is the outcome of rendering one installation's blueprint.
type Rendered struct {
	// Imports are the validated imports as templates saw them (defaults
	// applied, import-execution bindings merged, targets as objects).
	Imports          map[string]any
	DeployItems      []api.DeployItemTemplate
	Subinstallations []api.SubinstallationTemplate
	State            map[string]json.RawMessage
	// Warnings are unknown fields in rendered deploy items and
	// subinstallation templates (misspellings that would be ignored).
	Warnings []string
}

// ExportInput is what the Completing phase of one installation renders
// exports from.
type ExportInput struct {
	// Imports is Rendered.Imports of the same job.
	Imports map[string]any
	// DeployItems maps each deploy item name to its exports.
	DeployItems map[string]map[string]any
	// DataObjects and Targets hold the data exports and target exports of
	// the subinstallations, by the dataRef / target name they export to.
	DataObjects map[string]any
	Targets     map[string]api.Target
	Component   *Component
	State       map[string]json.RawMessage
	// Cluster gives export executions' getServiceAccountKubeconfig access
	// to target clusters; nil makes that function an error.
	Cluster template.ClusterAccess
}

// Exported are the exports of one installation, validated against the
// blueprint's export declarations; undeclared exports are dropped.
type Exported struct {
	Data    map[string]any
	Targets map[string]api.Target
	State   map[string]json.RawMessage
	// Warnings are what the export schemas' validation tolerated.
	Warnings []string `json:",omitempty"`
}
