package template

import (
	"encoding/json"
	"fmt"
	"path"

	"github.com/mandelsoft/spiff/dynaml"
	"github.com/mandelsoft/vfs/pkg/memoryfs"
	"github.com/mandelsoft/vfs/pkg/vfs"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/sandbox"
)

// The child is the provider's (or a test's) own executable; package
// sandbox does the job in this init, before main runs.
func init() { sandbox.Serve(spiffKind, renderJob) }

// renderJob runs a spiffJob in the sandbox's child: a Spiff template
// over the blueprint files, or a set of data mappings.
func renderJob(in json.RawMessage, call sandbox.Call) (any, error) {
	// Spiff's env() reads a copy of the environment taken at start; the
	// sandbox has emptied the environment since.
	dynaml.ReloadEnv()
	var job spiffJob
	if err := json.Unmarshal(in, &job); err != nil {
		return nil, fmt.Errorf("the job: %w", err)
	}
	var values map[string]any
	if len(job.Values) > 0 {
		if err := unmarshalNumbers(job.Values, &values); err != nil {
			return nil, fmt.Errorf("values: %w", err)
		}
	}
	if job.Mappings != nil {
		output, err := cascadeMappings(job, values)
		if err != nil {
			return nil, err
		}
		return spiffResult{Output: output}, nil
	}
	files, err := memoryFiles(job)
	if err != nil {
		return nil, err
	}
	output, state, err := cascade(job, files, values, askedLookups(call))
	if err != nil {
		return nil, err
	}
	return spiffResult{Output: output, State: state}, nil
}

// memoryFiles is the job's blueprint filesystem, nil if it has none.
func memoryFiles(job spiffJob) (vfs.FileSystem, error) {
	if !job.HasFiles {
		return nil, nil
	}
	mem := memoryfs.New()
	for p, data := range job.Files {
		if err := mem.MkdirAll(path.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := vfs.WriteFile(mem, p, data, 0o644); err != nil {
			return nil, err
		}
	}
	return mem, nil
}

func unmarshalNumbers(data []byte, v any) error {
	return api.DecodeExact(data, v, api.AllowTrailing)
}

// askedLookups are proxies of the component functions: each call is a
// question to the parent, where the component lives.
func askedLookups(call sandbox.Call) map[string]lookupFunc {
	out := map[string]lookupFunc{}
	for name := range sharedLookups(Request{}) {
		out[name] = func(args []any) (any, error) { return call(name, args) }
	}
	return out
}
