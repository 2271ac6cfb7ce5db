package blueprint

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// MapImportData evaluates an installation's importDataMappings (Spiff) over
// its imports (each reachable by its name) and returns the mapped values by
// name.
func MapImportData(mappings map[string]json.RawMessage, imports map[string]any) (map[string]any, error) {
	values := make(map[string]any, len(imports))
	for k, v := range imports {
		values[k] = v
	}
	return mapData("importDataMappings", mappings, values)
}

// MapExportData evaluates an installation's exportDataMappings (Spiff) over
// its exports (reachable by name and as `exports.<name>`) and imports
// (reachable by name unless an export has the same name).
func MapExportData(mappings map[string]json.RawMessage, exports, imports map[string]any) (map[string]any, error) {
	values := make(map[string]any, len(imports)+len(exports)+1)
	for k, v := range imports {
		values[k] = v
	}
	for k, v := range exports {
		values[k] = v
	}
	all := make(map[string]any, len(exports))
	for k, v := range exports {
		all[k] = v
	}
	values["exports"] = all
	return mapData("exportDataMappings", mappings, values)
}

// mapData evaluates each mapping as a Spiff template over values.
func mapData(field string, mappings map[string]json.RawMessage, values map[string]any) (out map[string]any, err error) {
	if len(mappings) == 0 {
		return map[string]any{}, nil
	}
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, terminal(ReasonDataMappingFailed, fmt.Errorf("%s: spiff panicked: %v", field, p))
		}
	}()
	normalized, _ := template.NormalizeForSpiff(values).(map[string]any)
	sp, err := spiffing.Plain().WithMode(spiffing.MODE_PRIVATE).WithValues(normalized)
	if err != nil {
		return nil, terminal(ReasonDataMappingFailed, fmt.Errorf("%s: values: %w", field, err))
	}
	keys := make([]string, 0, len(mappings))
	for k := range mappings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out = make(map[string]any, len(mappings))
	for _, key := range keys {
		v, err := evalMapping(sp, key, mappings[key])
		if err != nil {
			return nil, terminal(ReasonDataMappingFailed, fmt.Errorf("%s %q: %w", field, key, err))
		}
		out[key] = v
	}
	return out, nil
}

func evalMapping(sp spiffing.Spiff, key string, raw json.RawMessage) (any, error) {
	tmpl, err := spiffyaml.Unmarshal(key, raw)
	if err != nil {
		return nil, fmt.Errorf("not valid YAML/JSON: %w", err)
	}
	res, err := sp.Cascade(tmpl, nil)
	if err != nil {
		return nil, err
	}
	data, err := spiffyaml.Marshal(res)
	if err != nil {
		return nil, err
	}
	var v any
	if err := yaml.Unmarshal(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}
