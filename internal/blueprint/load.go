package blueprint

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"reflect"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// File is the name of the blueprint definition at the root of its filesystem.
const File = "blueprint.yaml"

// maxBlueprintBytes bounds blueprint.yaml and template files parsed as
// installation templates.
const maxBlueprintBytes = 8 << 20

// Load parses blueprint.yaml at the root of files, applies Landscaper's
// defaults and validates the definition. Unknown fields become Warnings.
func Load(files fs.FS) (*Blueprint, error) {
	if files == nil {
		return nil, errors.New("blueprint: no filesystem")
	}
	data, err := readLimited(files, File)
	if err != nil {
		return nil, fmt.Errorf("blueprint: %w", err)
	}
	b, err := Parse(data)
	if err != nil {
		return nil, err
	}
	b.Files = files
	return b, nil
}

// LoadDir loads the blueprint in a local directory. The directory is opened
// as an os.Root: no path, symlink or ".." a blueprint names (readFile,
// include, Spiff's read, a Helm chart.path) can reach outside it.
func LoadDir(dir string) (*Blueprint, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("blueprint directory %q: %w", dir, err)
	}
	// The root stays open as long as its FS is referenced (os.Root closes
	// its descriptor when it becomes unreachable).
	return Load(root.FS())
}

// WithLimits returns a copy of b whose executions, and the data mappings
// the engine evaluates for its installation, are bounded by l (zero
// fields: template.DefaultLimits'). Subinstallation blueprints loaded
// from it inherit l.
func (b *Blueprint) WithLimits(l template.Limits) *Blueprint {
	c := *b
	c.limits = l
	return &c
}

// Limits are the limits of b's executions (WithLimits).
func (b *Blueprint) Limits() template.Limits { return b.limits }

// Parse decodes a blueprint definition (YAML or JSON) without a filesystem.
func Parse(data []byte) (b *Blueprint, err error) {
	defer func() {
		// The YAML library has panicked on hostile input before; a
		// blueprint must never take the provider down.
		if p := recover(); p != nil {
			b, err = nil, fmt.Errorf("%s: cannot be parsed: %v", File, p)
		}
	}()
	// The YAML library limits alias expansion only by ratio; a small
	// blueprint.yaml may still expand to millions of nodes.
	if err := template.CheckYAMLAliases(File, data, template.DefaultLimits().MaxYAMLNodes); err != nil {
		return nil, err
	}
	jsonData, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not valid YAML: %s", File, template.YAMLErrorWithoutValues(err))
	}
	var generic any
	if err := json.Unmarshal(jsonData, &generic); err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	if _, ok := generic.(map[string]any); !ok {
		return nil, fmt.Errorf("%s: must be a YAML object", File)
	}
	if err := inlineSubinstallationImports(generic); err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	b = &Blueprint{}
	if err := json.Unmarshal(jsonData, &b.Spec); err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	b.Warnings = unknownFields(generic, reflect.TypeOf(Spec{}), "")
	if b.APIVersion != "" && b.APIVersion != APIVersion {
		b.Warnings = append(b.Warnings, fmt.Sprintf("apiVersion: %q is not %q", b.APIVersion, APIVersion))
	}
	if b.Kind != "" && b.Kind != Kind {
		b.Warnings = append(b.Warnings, fmt.Sprintf("kind: %q is not %q", b.Kind, Kind))
	}
	b.applyDefaults()
	if err := b.validate(); err != nil {
		return nil, fmt.Errorf("%s: %w", File, err)
	}
	return b, nil
}

// applyDefaults sets Landscaper's defaults: the JSON schema version, import
// and export types from schema/targetType, and the landscaper domain on
// target types without one.
func (b *Blueprint) applyDefaults() {
	if b.JSONSchemaVersion == "" {
		b.JSONSchemaVersion = DefaultJSONSchemaVersion
	}
	defaultImports(b.Imports)
	for i := range b.Exports {
		e := &b.Exports[i]
		if present(e.Schema) && e.TargetType != "" {
			continue // invalid; validate says so
		}
		if e.Type == "" {
			e.Type = typeFromShape(e.Schema, e.TargetType)
		}
		if e.Type == ImportTypeTarget {
			e.TargetType = qualifiedTargetType(e.TargetType)
		}
	}
}

func defaultImports(defs []ImportDefinition) {
	for i := range defs {
		d := &defs[i]
		defaultImports(d.Imports)
		if present(d.Schema) && d.TargetType != "" {
			continue
		}
		if d.Type == "" {
			d.Type = typeFromShape(d.Schema, d.TargetType)
		}
		// Landscaper qualifies target and targetList types only; a
		// targetMap's targetType is compared as written.
		if d.Type == ImportTypeTarget || d.Type == ImportTypeTargetList {
			d.TargetType = qualifiedTargetType(d.TargetType)
		}
	}
}

func typeFromShape(schema json.RawMessage, targetType string) ImportType {
	switch {
	case present(schema):
		return ImportTypeData
	case targetType != "":
		return ImportTypeTarget
	}
	return ""
}

func qualifiedTargetType(t string) string {
	if t != "" && !strings.Contains(t, "/") {
		return landscaperDomain + "/" + t
	}
	return t
}

// readLimited reads a file of the blueprint filesystem, refusing paths
// outside it and files larger than maxBlueprintBytes.
func readLimited(files fs.FS, name string) ([]byte, error) {
	if files == nil {
		return nil, fmt.Errorf("read %q: the blueprint has no filesystem", name)
	}
	clean := strings.TrimPrefix(name, "/")
	if !fs.ValidPath(clean) {
		return nil, fmt.Errorf("read %q: not a path inside the blueprint", name)
	}
	info, err := fs.Stat(files, clean)
	if err != nil {
		return nil, fmt.Errorf("read %q: %w", name, err)
	}
	if info.IsDir() {
		return nil, fmt.Errorf("read %q: is a directory", name)
	}
	if info.Size() > maxBlueprintBytes {
		return nil, fmt.Errorf("read %q: larger than %d bytes", name, maxBlueprintBytes)
	}
	return fs.ReadFile(files, clean)
}
