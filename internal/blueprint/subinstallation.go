package blueprint

import (
	"encoding/json"
	"fmt"
	"reflect"

	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// installationTemplateDoc is an InstallationTemplate document as files and
// subinstallation executions write it.
type installationTemplateDoc struct {
	APIVersion string `json:"apiVersion,omitempty"`
	Kind       string `json:"kind,omitempty"`
	api.SubinstallationTemplate
}

// staticSubinstallations returns the `subinstallations` of blueprint.yaml,
// reading `file:` entries from the blueprint filesystem.
func (b *Blueprint) staticSubinstallations() ([]api.SubinstallationTemplate, []string, error) {
	var (
		out      []api.SubinstallationTemplate
		warnings []string
	)
	for i, s := range b.Subinstallations {
		if s.File == "" {
			out = append(out, s.SubinstallationTemplate)
			continue
		}
		data, err := readLimited(b.Files, s.File)
		if err != nil {
			return nil, nil, terminal(ReasonInvalidBlueprint, fmt.Errorf("subinstallations[%d]: %w", i, err))
		}
		jsonData, err := yaml.YAMLToJSON(data)
		if err != nil {
			return nil, nil, terminal(ReasonInvalidBlueprint, fmt.Errorf("subinstallations[%d]: %s: %w", i, s.File, err))
		}
		var generic any
		var doc installationTemplateDoc
		if err := json.Unmarshal(jsonData, &generic); err != nil {
			return nil, nil, terminal(ReasonInvalidBlueprint, fmt.Errorf("subinstallations[%d]: %s: %w", i, s.File, err))
		}
		if err := json.Unmarshal(jsonData, &doc); err != nil {
			return nil, nil, terminal(ReasonInvalidBlueprint, fmt.Errorf("subinstallations[%d]: %s: %w", i, s.File, err))
		}
		if err := unsupportedImports(generic); err != nil {
			return nil, nil, terminal(ReasonInvalidBlueprint, fmt.Errorf("subinstallations[%d]: %s: %w", i, s.File, err))
		}
		for _, w := range unknownFields(generic, reflect.TypeOf(doc), "") {
			warnings = append(warnings, fmt.Sprintf("%s: %s", s.File, w))
		}
		out = append(out, doc.SubinstallationTemplate)
	}
	return out, warnings, nil
}

// decodeSubinstallations reads the `subinstallations` list of an execution.
func decodeSubinstallations(ex template.Execution, raw any) ([]api.SubinstallationTemplate, []string, error) {
	if raw == nil {
		return nil, nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, nil, terminal(ReasonTemplateFailed, fmt.Errorf("%s: subinstallations must be a list", ex.Describe("subinstallation execution")))
	}
	var (
		out      []api.SubinstallationTemplate
		warnings []string
	)
	for i, elem := range list {
		var doc installationTemplateDoc
		if err := remarshal(elem, &doc); err != nil {
			return nil, nil, terminal(ReasonTemplateFailed, fmt.Errorf("%s: subinstallations[%d]: %w", ex.Describe("subinstallation execution"), i, err))
		}
		if err := unsupportedImports(elem); err != nil {
			return nil, nil, terminal(ReasonTemplateFailed, fmt.Errorf("%s: subinstallations[%d]: %w", ex.Describe("subinstallation execution"), i, err))
		}
		for _, w := range unknownFields(elem, reflect.TypeOf(doc), fmt.Sprintf("subinstallations[%d]", i)) {
			warnings = append(warnings, fmt.Sprintf("%s: %s", ex.Describe("subinstallation execution"), w))
		}
		out = append(out, doc.SubinstallationTemplate)
	}
	return out, warnings, nil
}

// unsupportedImports rejects data imports of an installation template that
// read a Secret or ConfigMap. Landscaper forbids them in every installation
// template (its blueprint validation, ValidateInstallationTemplate): only
// an Installation object may read them, from its own namespace. The error
// says how to get the value to the subinstallation instead.
func unsupportedImports(doc any) error {
	m, _ := doc.(map[string]any)
	imports, _ := m["imports"].(map[string]any)
	data, _ := imports["data"].([]any)
	for j, d := range data {
		entry, _ := d.(map[string]any)
		for _, ref := range []struct{ field, what string }{{"secretRef", "secret"}, {"configMapRef", "configMap"}} {
			if _, ok := entry[ref.field]; ok {
				return fmt.Errorf("imports.data[%d].%s: %s references are not allowed in an installation template (nor in Landscaper); "+
					"import the value in the root installation (imports.secrets / imports.config_maps) and pass it down with a dataRef",
					j, ref.field, ref.what)
			}
		}
	}
	return nil
}

// inlineSubinstallationImports applies unsupportedImports to the inline
// entries of blueprint.yaml's `subinstallations`; the typed decoding would
// otherwise drop the reference and report only a missing dataRef.
func inlineSubinstallationImports(blueprintDoc any) error {
	m, _ := blueprintDoc.(map[string]any)
	subs, _ := m["subinstallations"].([]any)
	for i, s := range subs {
		if err := unsupportedImports(s); err != nil {
			return fmt.Errorf("subinstallations[%d]: %w", i, err)
		}
	}
	return nil
}
