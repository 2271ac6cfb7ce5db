package template

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"

	"github.com/mandelsoft/spiff/spiffing"
	spiffyaml "github.com/mandelsoft/spiff/yaml"
	"github.com/mandelsoft/vfs/pkg/memoryfs"
	"github.com/mandelsoft/vfs/pkg/vfs"
	"sigs.k8s.io/yaml"
)

// maxSpiffFilesystemBytes bounds the blueprint files copied into Spiff's
// in-memory filesystem.
const maxSpiffFilesystemBytes = 64 << 20

// Spiff renders Spiff executions. The blueprint filesystem is the only
// filesystem Spiff sees, and command execution is off.
type Spiff struct{}

var _ Executor = Spiff{}

// Execute cascades the template with the previous state as state document.
func (Spiff) Execute(req Request) (res Result, err error) {
	defer func() {
		if p := recover(); p != nil {
			res, err = Result{}, req.errorf("spiff panicked: %v", p)
		}
	}()
	tmpl, err := spiffTemplateNode(req)
	if err != nil {
		return Result{}, err
	}
	sp, err := newSpiff(req.Files, req.Component, req.Values)
	if err != nil {
		return Result{}, req.errorf("%w", err)
	}
	var states []spiffyaml.Node
	if req.WithState {
		state, err := spiffState(req.State)
		if err != nil {
			return Result{}, req.errorf("previous state: %w", err)
		}
		states = append(states, state)
	}
	out, err := sp.Cascade(tmpl, nil, states...)
	if err != nil {
		return Result{}, req.errorf("%w", err)
	}
	doc, err := nodeToMap(out)
	if err != nil {
		return Result{}, req.errorf("output: %w", err)
	}
	res.Output = doc
	if req.WithState {
		if state := sp.DetermineState(out); state != nil {
			v, err := spiffyaml.Normalize(state)
			if err != nil {
				return Result{}, req.errorf("state output: %w", err)
			}
			if m, ok := v.(map[string]any); !ok || len(m) > 0 {
				if res.State, err = json.Marshal(v); err != nil {
					return Result{}, req.errorf("state output: %w", err)
				}
			}
		}
	}
	return res, nil
}

// newSpiff returns a Spiff context without environment access, with the
// blueprint filesystem, Landscaper's functions and values.
func newSpiff(files fs.FS, comp componentArg, values map[string]any) (spiffing.Spiff, error) {
	functions := spiffing.NewFunctions()
	registerSpiffFuncs(functions, comp)
	sp := spiffing.Plain().WithFunctions(functions).WithMode(spiffing.MODE_PRIVATE)
	if files != nil {
		vfsys, err := copyToMemory(files)
		if err != nil {
			return nil, err
		}
		sp = sp.WithFileSystem(vfsys).WithMode(spiffing.MODE_FILE_ACCESS)
	}
	normalized, _ := NormalizeForSpiff(values).(map[string]any)
	return sp.WithValues(normalized)
}

// spiffTemplateNode parses the template: an inline structure, an inline
// string holding YAML, or a file.
func spiffTemplateNode(req Request) (spiffyaml.Node, error) {
	ex := req.Execution
	if len(ex.Template) > 0 && string(ex.Template) != "null" {
		var s string
		if json.Unmarshal(ex.Template, &s) == nil {
			node, err := spiffyaml.Unmarshal(ex.Name, []byte(s))
			if err != nil {
				return nil, req.errorf("template is not YAML: %w", err)
			}
			return node, nil
		}
		node, err := spiffyaml.Unmarshal(ex.Name, ex.Template)
		if err != nil {
			return nil, req.errorf("template: %w", err)
		}
		return node, nil
	}
	if ex.File != "" {
		data, err := readBlueprintFile(req.Files, ex.File)
		if err != nil {
			return nil, req.errorf("%w", err)
		}
		node, err := spiffyaml.Unmarshal(ex.File, data)
		if err != nil {
			return nil, req.errorf("%s is not YAML: %w", ex.File, err)
		}
		return node, nil
	}
	return nil, req.errorf("neither file nor template is set")
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
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("result is not a YAML object: %w", err)
	}
	return doc, nil
}

// copyToMemory copies the blueprint files into a memory filesystem, the
// form Spiff's file functions need.
func copyToMemory(files fs.FS) (vfs.FileSystem, error) {
	mem := memoryfs.New()
	total := 0
	err := fs.WalkDir(files, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == "." {
			return nil
		}
		if d.IsDir() {
			return mem.MkdirAll("/"+p, 0o755)
		}
		data, err := fs.ReadFile(files, p)
		if err != nil {
			return err
		}
		total += len(data)
		if total > maxSpiffFilesystemBytes {
			return fmt.Errorf("blueprint files exceed %d bytes", maxSpiffFilesystemBytes)
		}
		return vfs.WriteFile(mem, "/"+p, data, 0o644)
	})
	if err != nil {
		return nil, fmt.Errorf("blueprint filesystem for spiff: %w", err)
	}
	return mem, nil
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
