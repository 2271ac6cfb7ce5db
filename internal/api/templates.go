package api

import (
	"encoding/json"
	"fmt"
)

// DeployItemTemplate is one element of the `deployItems` list a deploy
// execution renders (Landscaper's DeployItemTemplate).
type DeployItemTemplate struct {
	Name               string            `json:"name"`
	Type               string            `json:"type"`
	Target             *TargetSelector   `json:"target,omitempty"`
	Labels             map[string]string `json:"labels,omitempty"`
	Config             json.RawMessage   `json:"config,omitempty"`
	DependsOn          []string          `json:"dependsOn,omitempty"`
	Timeout            *Duration         `json:"timeout,omitempty"`
	UpdateOnChangeOnly bool              `json:"updateOnChangeOnly,omitempty"`
	// OnDelete is Landscaper's onDelete block; its one setting has no
	// effect here (the blueprint's render warns when it is set).
	OnDelete *OnDeleteConfig `json:"onDelete,omitempty"`
	// Execution is the name of the deploy execution that rendered the
	// item, for messages; not part of Landscaper's template.
	Execution string `json:"-"`
	// Source is the blueprint file of that execution's template ("" for
	// an inline template), for messages; not part of Landscaper's
	// template.
	Source string `json:"-"`
}

// OnDeleteConfig is Landscaper's onDelete block of a deploy item template.
type OnDeleteConfig struct {
	// SkipUninstallIfClusterRemoved skips the uninstall when the target's
	// Gardener shoot is gone, which Landscaper learns from a TargetSync.
	SkipUninstallIfClusterRemoved bool `json:"skipUninstallIfClusterRemoved,omitempty"`
}

// TargetSelector names the target import a deploy item runs against:
// `{import: cluster}`, `{import: list, index: 0}` or `{import: map, key: eu}`.
type TargetSelector struct {
	Import string `json:"import,omitempty"`
	Index  *int   `json:"index,omitempty"`
	Key    string `json:"key,omitempty"`
	// Name is Landscaper's legacy form (a Target object by name); accepted
	// and resolved like Import.
	Name string `json:"name,omitempty"`
}

// Expression shows s as the provider's attributes do (deploy_items'
// target, the rendered tree): "cluster", "clusters[0]", `regions["eu"]`,
// or the legacy name; "" for nil.
func (s *TargetSelector) Expression() string {
	switch {
	case s == nil:
		return ""
	case s.Index != nil:
		return fmt.Sprintf("%s[%d]", s.Import, *s.Index)
	case s.Key != "":
		return fmt.Sprintf("%s[%q]", s.Import, s.Key)
	case s.Import != "":
		return s.Import
	}
	return s.Name
}

// SubinstallationTemplate is one subinstallation a blueprint declares,
// statically or through a subinstallation execution.
type SubinstallationTemplate struct {
	Name               string                     `json:"name"`
	Blueprint          SubinstallationBlueprint   `json:"blueprint"`
	Imports            InstallationImports        `json:"imports,omitempty"`
	ImportDataMappings map[string]json.RawMessage `json:"importDataMappings,omitempty"`
	Exports            InstallationExports        `json:"exports,omitempty"`
	ExportDataMappings map[string]json.RawMessage `json:"exportDataMappings,omitempty"`
}

// SubinstallationBlueprint references the blueprint of a subinstallation:
// `ref` (`cd://componentReferences/<c>/resources/<r>` or `cd://resources/<r>`)
// or an inline `filesystem` (path → content).
type SubinstallationBlueprint struct {
	Ref        string            `json:"ref,omitempty"`
	Filesystem map[string]string `json:"filesystem,omitempty"`
}

// InstallationImports are the data and target imports of an installation,
// each naming where the value comes from in the parent's scope.
type InstallationImports struct {
	Data    []DataImport   `json:"data,omitempty"`
	Targets []TargetImport `json:"targets,omitempty"`
}

// DataImport imports the parent-scope data object DataRef as Name.
type DataImport struct {
	Name    string `json:"name"`
	DataRef string `json:"dataRef,omitempty"`
}

// TargetImport imports one target (Target), a list (Targets or
// TargetListRef) or a map (TargetMapRef, TargetMap) as Name.
type TargetImport struct {
	Name          string            `json:"name"`
	Target        string            `json:"target,omitempty"`
	Targets       []string          `json:"targets,omitempty"`
	TargetListRef string            `json:"targetListRef,omitempty"`
	TargetMapRef  string            `json:"targetMapRef,omitempty"`
	TargetMap     map[string]string `json:"targetMap,omitempty"`
}

// InstallationExports publish an installation's exports into its parent's
// scope: export Name is stored as data object DataRef / target Target.
type InstallationExports struct {
	Data    []DataExport   `json:"data,omitempty"`
	Targets []TargetExport `json:"targets,omitempty"`
}

// DataExport stores the export Name as the parent-scope data object DataRef.
type DataExport struct {
	Name    string `json:"name"`
	DataRef string `json:"dataRef"`
}

// TargetExport stores the export Name as the parent-scope target Target.
type TargetExport struct {
	Name   string `json:"name"`
	Target string `json:"target"`
}
