package blueprint

import (
	"errors"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// validate checks the rules Landscaper's blueprint validation enforces and
// joins every violation into one error.
func (b *Blueprint) validate() error {
	var errs []error
	seen := map[string]bool{}
	errs = append(errs, validateImports(b.Imports, "imports", seen)...)

	exportNames := map[string]bool{}
	for i, e := range b.Exports {
		p := fmt.Sprintf("exports[%d]", i)
		switch {
		case e.Name == "":
			errs = append(errs, fmt.Errorf("%s.name: must not be empty", p))
		case exportNames[e.Name]:
			errs = append(errs, fmt.Errorf("%s: duplicate export name %q", p, e.Name))
		}
		exportNames[e.Name] = true
		errs = append(errs, checkShape(p, e.Type, present(e.Schema), e.TargetType, ImportTypeData, ImportTypeTarget)...)
	}

	errs = append(errs, validateExecutions("importExecutions", b.ImportExecutions)...)
	errs = append(errs, validateExecutions("deployExecutions", b.DeployExecutions)...)
	errs = append(errs, validateExecutions("subinstallationExecutions", b.SubinstallationExecutions)...)
	errs = append(errs, validateExecutions("exportExecutions", b.ExportExecutions)...)

	names := map[string]bool{}
	for i, s := range b.Subinstallations {
		p := fmt.Sprintf("subinstallations[%d]", i)
		if s.File != "" {
			if s.Name != "" || s.Blueprint.Ref != "" || len(s.Blueprint.Filesystem) > 0 {
				errs = append(errs, fmt.Errorf("%s: either file or an inline installation template, not both", p))
			}
			continue
		}
		if err := validateInstallationTemplate(p, s.SubinstallationTemplate, names); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func validateImports(defs []ImportDefinition, path string, seen map[string]bool) []error {
	var errs []error
	for i, d := range defs {
		p := fmt.Sprintf("%s[%d]", path, i)
		switch {
		case d.Name == "":
			errs = append(errs, fmt.Errorf("%s.name: must not be empty", p))
		case seen[d.Name]:
			errs = append(errs, fmt.Errorf("%s: duplicate import name %q", p, d.Name))
		}
		seen[d.Name] = true
		errs = append(errs, checkShape(p, d.Type, present(d.Schema), d.TargetType,
			ImportTypeData, ImportTypeTarget, ImportTypeTargetList, ImportTypeTargetMap)...)
		if d.Default != nil && len(d.Default.Value) > 0 && d.Type != ImportTypeData {
			errs = append(errs, fmt.Errorf("%s.default: only data imports have defaults", p))
		}
		if len(d.Imports) > 0 {
			if d.IsRequired() {
				errs = append(errs, fmt.Errorf("%s: conditional imports need an optional (required: false) parent import %q", p, d.Name))
			}
			errs = append(errs, validateImports(d.Imports, p+".imports", seen)...)
		}
	}
	return errs
}

// checkShape enforces: a known type, schema for data, targetType for
// targets, never both.
func checkShape(p string, typ ImportType, hasSchema bool, targetType string, allowed ...ImportType) []error {
	if hasSchema && targetType != "" {
		return []error{fmt.Errorf("%s: either schema or targetType must be set, not both", p)}
	}
	if typ == "" {
		return []error{fmt.Errorf("%s: either schema or targetType must be set", p)}
	}
	known := false
	for _, a := range allowed {
		known = known || a == typ
	}
	if !known {
		return []error{fmt.Errorf("%s.type: %q is not one of %v", p, typ, allowed)}
	}
	if typ == ImportTypeData && !hasSchema {
		return []error{fmt.Errorf("%s.schema: must be set for type data", p)}
	}
	if typ != ImportTypeData && targetType == "" {
		return []error{fmt.Errorf("%s.targetType: must be set for type %s", p, typ)}
	}
	return nil
}

func validateExecutions(list string, execs []template.Execution) []error {
	var errs []error
	names := map[string]bool{}
	for i, e := range execs {
		p := fmt.Sprintf("%s[%d]", list, i)
		// Landscaper's controller renders executions without a name (they
		// share one state key); only named ones must be unique.
		if e.Name != "" && names[e.Name] {
			errs = append(errs, fmt.Errorf("%s: duplicate execution name %q", p, e.Name))
		}
		names[e.Name] = true
		if e.Type != template.TypeGoTemplate && e.Type != template.TypeSpiff {
			errs = append(errs, fmt.Errorf("%s.type: %q is not %s or %s", p, e.Type, template.TypeGoTemplate, template.TypeSpiff))
		}
		hasTemplate := present(e.Template)
		if hasTemplate == (e.File != "") {
			errs = append(errs, fmt.Errorf("%s: exactly one of file and template must be set", p))
		}
	}
	return errs
}

// validateInstallationTemplate checks one subinstallation template; names
// collects subinstallation names to reject duplicates.
func validateInstallationTemplate(p string, t api.SubinstallationTemplate, names map[string]bool) error {
	var errs []error
	switch {
	case t.Name == "":
		errs = append(errs, fmt.Errorf("%s.name: must be set", p))
	case names[t.Name]:
		errs = append(errs, fmt.Errorf("%s: duplicate subinstallation name %q", p, t.Name))
	}
	names[t.Name] = true
	if (t.Blueprint.Ref == "") == (len(t.Blueprint.Filesystem) == 0) {
		errs = append(errs, fmt.Errorf("%s.blueprint: exactly one of ref and filesystem must be set", p))
	}
	imports := map[string]bool{}
	for i, d := range t.Imports.Data {
		if d.Name == "" || d.DataRef == "" {
			errs = append(errs, fmt.Errorf("%s.imports.data[%d]: name and dataRef must be set", p, i))
		}
		if imports[d.Name] {
			errs = append(errs, fmt.Errorf("%s.imports.data[%d]: duplicate import %q", p, i, d.Name))
		}
		imports[d.Name] = true
	}
	for i, d := range t.Imports.Targets {
		if d.Name == "" {
			errs = append(errs, fmt.Errorf("%s.imports.targets[%d].name: must be set", p, i))
		}
		if imports[d.Name] {
			errs = append(errs, fmt.Errorf("%s.imports.targets[%d]: duplicate import %q", p, i, d.Name))
		}
		imports[d.Name] = true
	}
	return errors.Join(errs...)
}
