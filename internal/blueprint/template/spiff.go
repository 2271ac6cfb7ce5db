package template

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"

	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
	"github.com/mandelsoft/vfs/pkg/vfs"
)

// maxSpiffFilesystemBytes bounds the blueprint files copied into Spiff's
// in-memory filesystem.
const maxSpiffFilesystemBytes = 64 << 20

// Spiff renders Spiff executions in the sandbox's child process
// (sandbox.go). The
// blueprint filesystem is the only filesystem Spiff sees; command
// execution, the environment and the network are off.
type Spiff struct{}

var _ Executor = Spiff{}

// Execute checks the template's YAML aliases, hands template, values,
// state and blueprint files to the sandbox and decodes its result.
func (Spiff) Execute(req Request) (Result, error) {
	req = req.withDefaults()
	text, name, err := spiffTemplateText(req)
	if err != nil {
		return Result{}, err
	}
	if err := CheckYAMLAliases(name, text, req.Limits.MaxYAMLNodes); err != nil {
		return Result{}, req.errorf("%w", err)
	}
	job := spiffJob{Name: name, Template: text, State: req.State, WithState: req.WithState}
	if job.Values, err = json.Marshal(req.Values); err != nil {
		return Result{}, req.errorf("values: %w", err)
	}
	if req.Files != nil {
		job.HasFiles = true
		if job.Files, err = blueprintFiles(req.Files, req.Limits.MaxYAMLNodes); err != nil {
			return Result{}, req.errorf("%w", err)
		}
	}
	out, err := runSandboxed(req.Context, job, req.Limits, sharedLookups(req))
	if err != nil {
		if excerpt := spiffExcerpt(text, err.Error()); excerpt != "" {
			return Result{}, req.errorf("%w\n%s", err, excerpt)
		}
		return Result{}, req.errorf("%w", err)
	}
	res := Result{Output: map[string]any{}, State: out.State}
	if err := DecodeJSON(out.Output, &res.Output); err != nil {
		return Result{}, req.errorf("output: %w", err)
	}
	return res, nil
}

// cascade runs Spiff on a job; the sandbox child calls it.
func cascade(job spiffJob, files vfs.FileSystem, values map[string]any, lookups map[string]lookupFunc) (output, state json.RawMessage, err error) {
	tmpl, err := spiffyaml.Unmarshal(job.Name, job.Template)
	if err != nil {
		return nil, nil, fmt.Errorf("%s is not YAML: %w", job.Name, err)
	}
	sp, err := newSpiff(files, lookups, values)
	if err != nil {
		return nil, nil, err
	}
	var states []spiffyaml.Node
	if job.WithState {
		st, err := spiffState(job.State)
		if err != nil {
			return nil, nil, fmt.Errorf("previous state: %w", err)
		}
		states = append(states, st)
	}
	out, err := sp.Cascade(tmpl, nil, states...)
	if err != nil {
		return nil, nil, err
	}
	doc, err := nodeToMap(out)
	if err != nil {
		return nil, nil, fmt.Errorf("output: %w", err)
	}
	if output, err = json.Marshal(doc); err != nil {
		return nil, nil, fmt.Errorf("output: %w", err)
	}
	if job.WithState {
		if st := sp.DetermineState(out); st != nil {
			v, err := spiffyaml.Normalize(st)
			if err != nil {
				return nil, nil, fmt.Errorf("state output: %w", err)
			}
			if m, ok := v.(map[string]any); !ok || len(m) > 0 {
				if state, err = json.Marshal(v); err != nil {
					return nil, nil, fmt.Errorf("state output: %w", err)
				}
			}
		}
	}
	return output, state, nil
}

// newSpiff returns a Spiff context without OS access, with the blueprint
// filesystem, Landscaper's functions and values.
func newSpiff(files vfs.FileSystem, lookups map[string]lookupFunc, values map[string]any) (spiffing.Spiff, error) {
	functions := spiffing.NewFunctions()
	registerSpiffFuncs(functions, Request{})
	for name, fn := range lookups {
		functions.RegisterFunction(name, spiffFunc(fn))
	}
	sp := spiffing.Plain().WithFunctions(functions).WithMode(spiffing.MODE_PRIVATE)
	if files != nil {
		sp = sp.WithFileSystem(files).WithMode(spiffing.MODE_FILE_ACCESS)
	}
	normalized, _ := NormalizeForSpiff(values).(map[string]any)
	return sp.WithValues(normalized)
}

// spiffTemplateText returns the template as YAML (or JSON) text and the
// name errors use for it: an inline structure, an inline string holding
// YAML, or a file.
func spiffTemplateText(req Request) ([]byte, string, error) {
	ex := req.Execution
	if len(ex.Template) > 0 && string(ex.Template) != "null" {
		var s string
		if json.Unmarshal(ex.Template, &s) == nil {
			return []byte(s), ex.Name, nil
		}
		return ex.Template, ex.Name, nil
	}
	if ex.File != "" {
		data, err := readBlueprintFile(req.Files, ex.File)
		if err != nil {
			return nil, "", req.errorf("%w", err)
		}
		return data, ex.File, nil
	}
	return nil, "", req.errorf("neither file nor template is set")
}

// spiffState is the previous state as a Spiff state document.
func spiffState(raw json.RawMessage) (spiffyaml.Node, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return spiffyaml.NewNode(map[string]any{}, "state"), nil
	}
	return spiffyaml.Unmarshal("state", raw)
}

// nodeToMap converts a Spiff result into plain JSON-compatible Go values.
func nodeToMap(n spiffyaml.Node) (map[string]any, error) {
	data, err := spiffyaml.Marshal(n)
	if err != nil {
		return nil, err
	}
	doc := map[string]any{}
	if err := decodeYAML(data, &doc); err != nil {
		return nil, fmt.Errorf("result is not a YAML object: %w", err)
	}
	return doc, nil
}

// blueprintFiles reads the blueprint files for the sandbox, refusing
// YAML files whose aliases expand beyond maxNodes (Spiff's read() would
// expand them).
func blueprintFiles(files fs.FS, maxNodes int64) (map[string][]byte, error) {
	out := map[string][]byte{}
	total := 0
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		if total += len(data); total > maxSpiffFilesystemBytes {
			return fmt.Errorf("blueprint files exceed %d bytes", maxSpiffFilesystemBytes)
		}
		if err := CheckYAMLAliases(p, data, maxNodes); err != nil {
			return err
		}
		out["/"+p] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("blueprint filesystem for spiff: %w", err)
	}
	return out, nil
}

// NormalizeForSpiff returns values with integral float64 numbers (as JSON
// decoding produces them) turned into int64: Spiff compares int64 and
// float64 incorrectly (7.0 > 5 is false), so imports decoded from JSON would
// otherwise behave differently from the same values written in YAML.
func NormalizeForSpiff(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = NormalizeForSpiff(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = NormalizeForSpiff(e)
		}
		return out
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
		return x
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		if f, err := x.Float64(); err == nil {
			return f
		}
		return x.String()
	}
	return v
}
