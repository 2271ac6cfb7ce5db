package template

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"

	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/sandbox"
)

// SpiffMappings evaluates data mappings (importDataMappings,
// exportDataMappings; field names them in errors): each mapping is a Spiff
// template of its own over values, without file access. A
// subinstallation's mappings come from its parent's blueprint, so they run
// in the sandbox like every other Spiff template, bounded by limits (zero
// fields: DefaultLimits'); ctx ends the evaluation.
func SpiffMappings(ctx context.Context, limits Limits, field string, mappings map[string]json.RawMessage, values map[string]any) (map[string]any, error) {
	if len(mappings) == 0 {
		return map[string]any{}, nil
	}
	if ctx == nil {
		ctx = context.Background()
	}
	limits = limits.WithDefaults()
	for key, raw := range mappings {
		if err := CheckYAMLAliases(fmt.Sprintf("%s %q", field, key), raw, limits.MaxYAMLNodes); err != nil {
			return nil, err
		}
	}
	job := spiffJob{Name: field, Mappings: mappings}
	var err error
	if job.Values, err = json.Marshal(values); err != nil {
		return nil, fmt.Errorf("%s: values: %w", field, err)
	}
	res, err := runSandboxed(ctx, job, limits, nil)
	var spiffErr *sandbox.JobError
	if errors.As(err, &spiffErr) {
		return nil, spiffErr // it names field and the mapping's key
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	out := map[string]any{}
	if err := DecodeJSON(res.Output, &out); err != nil {
		return nil, fmt.Errorf("%s: output: %w", field, err)
	}
	return out, nil
}

// cascadeMappings evaluates a mapping job in the sandbox child, keys in
// order, and returns the results by key as JSON.
func cascadeMappings(job spiffJob, values map[string]any) (json.RawMessage, error) {
	normalized, _ := NormalizeForSpiff(values).(map[string]any)
	sp, err := spiffing.Plain().WithMode(spiffing.MODE_PRIVATE).WithValues(normalized)
	if err != nil {
		return nil, fmt.Errorf("%s: values: %w", job.Name, err)
	}
	keys := make([]string, 0, len(job.Mappings))
	for k := range job.Mappings {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make(map[string]any, len(keys))
	for _, key := range keys {
		v, err := evalMapping(sp, key, job.Mappings[key])
		if err != nil {
			return nil, fmt.Errorf("%s %q: %w", job.Name, key, err)
		}
		out[key] = v
	}
	return json.Marshal(out)
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
	if err := decodeYAML(data, &v); err != nil {
		return nil, err
	}
	return v, nil
}
