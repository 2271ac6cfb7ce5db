package blueprint

import (
	"encoding/json"
	"io/fs"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// Blueprint field values Landscaper defines.
const (
	APIVersion = "landscaper.gardener.cloud/v1alpha1"
	Kind       = "Blueprint"

	// DefaultJSONSchemaVersion is Landscaper's default `jsonSchemaVersion`.
	DefaultJSONSchemaVersion = "https://json-schema.org/draft/2019-09/schema"

	// landscaperDomain prefixes target types written without a domain.
	landscaperDomain = "landscaper.gardener.cloud"
)

// ImportType is the kind of value an import carries.
type ImportType string

// Import and export types.
const (
	ImportTypeData       ImportType = "data"
	ImportTypeTarget     ImportType = "target"
	ImportTypeTargetList ImportType = "targetList"
	ImportTypeTargetMap  ImportType = "targetMap"
)

// Blueprint is a parsed blueprint.yaml and the filesystem it was read from.
type Blueprint struct {
	Spec
	// Files is the blueprint filesystem; templates read only from it.
	Files fs.FS
	// Warnings are problems that do not stop loading, e.g. unknown fields.
	Warnings []string
	// Definition is how the installation referenced this blueprint; it is
	// the `blueprint` template input.
	Definition map[string]any
	// limits bound every execution (WithLimits).
	limits template.Limits
	// Component is the component descriptor context of a subinstallation
	// with this blueprint (set by Subinstallation): the component holding
	// the blueprint resource, or the parent's for an inline blueprint.
	Component *Component
}

// Component is the component descriptor context of an installation
// (`cd`, `components`, resources for getResource…); nil means none.
type Component = component.Component

// Spec holds every field of blueprint.yaml, defaults applied.
type Spec struct {
	APIVersion        string            `json:"apiVersion"`
	Kind              string            `json:"kind"`
	Annotations       map[string]string `json:"annotations,omitempty"`
	JSONSchemaVersion string            `json:"jsonSchemaVersion,omitempty"`
	// JSONSchema is accepted and ignored, as Landscaper v0.98 ignores it:
	// Landscaper's guided tour and blueprints modelled on it write
	// `jsonSchema:` (the version is jsonSchemaVersion's, defaulted).
	JSONSchema                json.RawMessage            `json:"jsonSchema,omitempty"`
	LocalTypes                map[string]json.RawMessage `json:"localTypes,omitempty"`
	Imports                   []ImportDefinition         `json:"imports,omitempty"`
	ImportExecutions          []template.Execution       `json:"importExecutions,omitempty"`
	Exports                   []ExportDefinition         `json:"exports,omitempty"`
	Subinstallations          []SubinstallationEntry     `json:"subinstallations,omitempty"`
	SubinstallationExecutions []template.Execution       `json:"subinstallationExecutions,omitempty"`
	DeployExecutions          []template.Execution       `json:"deployExecutions,omitempty"`
	ExportExecutions          []template.Execution       `json:"exportExecutions,omitempty"`
}

// ImportDefinition declares one import.
type ImportDefinition struct {
	Name       string          `json:"name"`
	Type       ImportType      `json:"type,omitempty"`
	Schema     json.RawMessage `json:"schema,omitempty"`
	TargetType string          `json:"targetType,omitempty"`
	// Required defaults to true.
	Required *bool         `json:"required,omitempty"`
	Default  *DefaultValue `json:"default,omitempty"`
	// Imports are conditional imports, considered only when this import is
	// present.
	Imports []ImportDefinition `json:"imports,omitempty"`
}

// IsRequired applies the default (true).
func (d ImportDefinition) IsRequired() bool { return d.Required == nil || *d.Required }

// DefaultValue is the value of an optional import that is not given.
type DefaultValue struct {
	Value json.RawMessage `json:"value,omitempty"`
}

// ExportDefinition declares one export (type data or target).
type ExportDefinition struct {
	Name       string          `json:"name"`
	Type       ImportType      `json:"type,omitempty"`
	Schema     json.RawMessage `json:"schema,omitempty"`
	TargetType string          `json:"targetType,omitempty"`
}

// SubinstallationEntry is a static subinstallation: inline, or `file:`
// naming a file of the blueprint that holds the installation template.
type SubinstallationEntry struct {
	File       string `json:"file,omitempty"`
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	api.SubinstallationTemplate
}
