package blueprint

import (
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/jsonschema"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// constructImports validates the given imports against the blueprint's
// declarations and returns the `imports` template input: data imports as
// values, target imports as whole Target objects (maps), lists and maps of
// them. Undeclared imports are dropped, defaults applied, conditional
// imports considered only under a present parent.
// Warnings are what the schemas' validation tolerated (see
// jsonschema.Context.Warn).
func (b *Blueprint) constructImports(in Imports, comp *Component) (map[string]any, []string, error) {
	out := map[string]any{}
	var warnings []string
	if err := b.importLevel(b.Imports, in, comp, out, &warnings); err != nil {
		return nil, nil, err
	}
	return out, warnings, nil
}

func (b *Blueprint) importLevel(defs []ImportDefinition, in Imports, comp *Component, out map[string]any, warnings *[]string) error {
	for _, d := range defs {
		present, err := b.importOne(d, in, comp, out, warnings)
		if err != nil {
			if failure.Reason(err) == ReasonInvalidBlueprint {
				return err // the declaration is wrong, not the value
			}
			return NewInputError(InputImport, d.Name, err)
		}
		if present && len(d.Imports) > 0 {
			if err := b.importLevel(d.Imports, in, comp, out, warnings); err != nil {
				return err
			}
		}
	}
	return nil
}

// importOne sets out[d.Name] and reports whether the import is present.
func (b *Blueprint) importOne(d ImportDefinition, in Imports, comp *Component, out map[string]any, warnings *[]string) (bool, error) {
	var (
		value any
		found bool
		err   error
	)
	switch d.Type {
	case ImportTypeData:
		value, found = in.Data[d.Name]
		if !found && !d.IsRequired() && d.Default != nil && present(d.Default.Value) {
			if err := template.DecodeJSON(d.Default.Value, &value); err != nil {
				return false, terminal(ReasonInvalidBlueprint, fmt.Errorf("import %q: default value: %w", d.Name, err))
			}
			found = true
		}
	case ImportTypeTarget:
		var t api.Target
		if t, found = in.Targets[d.Name]; found {
			if err := checkTargetType(d, t, ""); err != nil {
				return false, err
			}
			if value, err = targetValue(t); err != nil {
				return false, importTargetError(d.Name, err)
			}
		}
	case ImportTypeTargetList:
		var list []api.Target
		if list, found = in.TargetLists[d.Name]; found {
			values := make([]any, len(list))
			for i, t := range list {
				if err := checkTargetType(d, t, fmt.Sprintf("element %d", i)); err != nil {
					return false, err
				}
				v, err := targetValue(t)
				if err != nil {
					return false, importTargetError(d.Name, err)
				}
				values[i] = v
			}
			value = values
		}
	case ImportTypeTargetMap:
		var m map[string]api.Target
		if m, found = in.TargetMaps[d.Name]; found {
			values := make(map[string]any, len(m))
			for k, t := range m {
				if err := checkTargetType(d, t, fmt.Sprintf("key %q", k)); err != nil {
					return false, err
				}
				v, err := targetValue(t)
				if err != nil {
					return false, importTargetError(d.Name, err)
				}
				values[k] = v
			}
			value = values
		}
	default:
		return false, terminal(ReasonInvalidBlueprint, fmt.Errorf("import %q: unknown type %q", d.Name, d.Type))
	}
	if !found {
		if d.IsRequired() {
			return false, terminal(ReasonImportNotSatisfied,
				fmt.Errorf("import %q of type %s: required import not satisfied", d.Name, d.Type))
		}
		return false, nil
	}
	if d.Type == ImportTypeData {
		if err := b.validateValue(fmt.Sprintf("import %q", d.Name), d.Name, d.Schema, value, comp, warnings); err != nil {
			return false, terminal(ReasonImportValidationFailed, err)
		}
	}
	out[d.Name] = value
	return true, nil
}

// validateValue checks a data import or export against its schema and
// appends what the validation tolerated to warnings.
func (b *Blueprint) validateValue(what, name string, schema json.RawMessage, value any, comp *Component, warnings *[]string) error {
	ctx := b.schemaContext(comp, func(w string) { *warnings = append(*warnings, what+": "+w) })
	secret := jsonschema.LooksSecret(name) || jsonschema.LooksSecret(string(schema))
	return jsonschema.Validate(ctx, what, schema, value, secret)
}

// schemaContext is where the blueprint's schemas resolve their references.
func (b *Blueprint) schemaContext(comp *Component, warn func(string)) jsonschema.Context {
	return jsonschema.Context{Version: b.JSONSchemaVersion, LocalTypes: b.LocalTypes, Files: b.Files, Component: comp, Warn: warn}
}

func checkTargetType(d ImportDefinition, t api.Target, elem string) error {
	if t.Spec.Type == d.TargetType {
		return nil
	}
	where := ""
	if elem != "" {
		where = " (" + elem + ")"
	}
	return terminal(ReasonImportValidationFailed,
		fmt.Errorf("import %q%s: target type is %q but the blueprint expects %q", d.Name, where, t.Spec.Type, d.TargetType))
}

// targetValue is a Target as templates see it: the whole object as a
// generic map, so `.imports.cluster.spec.config.kubeconfig` works.
func targetValue(t api.Target) (map[string]any, error) {
	if t.APIVersion == "" {
		t.APIVersion = api.TargetAPIVersion
	}
	if t.Kind == "" {
		t.Kind = api.TargetKind
	}
	data, err := json.Marshal(t)
	if err != nil {
		// Never wrap err: its message may quote the config.
		return nil, fmt.Errorf("target %q: spec.config is not valid JSON", t.Metadata.Name)
	}
	var m map[string]any
	if err := template.DecodeJSON(data, &m); err != nil {
		return nil, fmt.Errorf("target %q: cannot be decoded", t.Metadata.Name)
	}
	return m, nil
}

func importTargetError(name string, err error) error {
	return terminal(ReasonImportValidationFailed, fmt.Errorf("import %q: %w", name, err))
}

// present reports whether a raw JSON field holds a value.
func present(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
