package blueprint

import (
	"context"
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// MapImportData evaluates an installation's importDataMappings (Spiff) over
// its imports (each reachable by its name) and returns the mapped values by
// name. ctx ends the evaluation and limits bound it, as for the
// blueprint's own templates (Blueprint.Render, Blueprint.Limits).
func MapImportData(ctx context.Context, limits template.Limits, mappings map[string]json.RawMessage, imports map[string]any) (map[string]any, error) {
	values := make(map[string]any, len(imports))
	for k, v := range imports {
		values[k] = v
	}
	return mapData(ctx, limits, "importDataMappings", mappings, values)
}

// MapExportData evaluates an installation's exportDataMappings (Spiff) over
// its exports (reachable by name and as `exports.<name>`) and imports
// (reachable by name unless an export has the same name). ctx and limits
// as for MapImportData.
func MapExportData(ctx context.Context, limits template.Limits, mappings map[string]json.RawMessage, exports, imports map[string]any) (map[string]any, error) {
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
	return mapData(ctx, limits, "exportDataMappings", mappings, values)
}

// mapData evaluates each mapping as a Spiff template over values, in the
// Spiff sandbox (template.SpiffMappings).
func mapData(ctx context.Context, limits template.Limits, field string, mappings map[string]json.RawMessage, values map[string]any) (map[string]any, error) {
	out, err := template.SpiffMappings(ctx, limits, field, mappings, values)
	if err != nil {
		return nil, terminal(ReasonDataMappingFailed, err)
	}
	return out, nil
}
