package template

import (
	"fmt"
	"io/fs"
	"strings"
	"sync"
	gotmpl "text/template"

	"github.com/Masterminds/sprig/v3"
	"sigs.k8s.io/yaml"
)

// maxSequence bounds Sprig's list builders so a template cannot allocate
// without limit through `until 1000000000`.
const maxSequence = 1 << 20

var (
	sprigOnce  sync.Once
	sprigFuncs gotmpl.FuncMap
)

// landscaperSprig is Sprig without access to the provider's environment
// and with bounded list/string builders.
func landscaperSprig() gotmpl.FuncMap {
	sprigOnce.Do(func() {
		fm := sprig.TxtFuncMap()
		delete(fm, "env")
		delete(fm, "expandenv")
		fm["until"] = func(count int) ([]int, error) {
			step := 1
			if count < 0 {
				step = -1
			}
			return boundedSequence(0, count, step)
		}
		fm["untilStep"] = boundedSequence
		fm["repeat"] = func(count int, s string) (string, error) {
			if count > 0 && len(s)*count > MaxOutputBytes {
				return "", fmt.Errorf("repeat: result exceeds %d bytes", MaxOutputBytes)
			}
			if count < 0 {
				count = 0
			}
			return strings.Repeat(s, count), nil
		}
		sprigFuncs = fm
	})
	return sprigFuncs
}

// boundedSequence is Sprig's untilStep (start inclusive, stop exclusive,
// empty when step points away from stop) with a length limit.
func boundedSequence(start, stop, step int) ([]int, error) {
	if step == 0 || (step > 0 && start >= stop) || (step < 0 && start <= stop) {
		return []int{}, nil
	}
	if n := abs(stop-start) / abs(step); n > maxSequence {
		return nil, fmt.Errorf("sequence of %d elements exceeds %d", n, maxSequence)
	}
	var out []int
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		out = append(out, i)
	}
	return out, nil
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// funcs is the function map of one GoTemplate run.
func (r *goTemplateRun) funcs() gotmpl.FuncMap {
	fm := gotmpl.FuncMap{}
	for k, v := range landscaperSprig() {
		fm[k] = v
	}
	files := r.req.Files
	fm["include"] = r.include
	fm["readFile"] = func(name string) ([]byte, error) { return readBlueprintFile(files, name) }
	fm["readDir"] = func(name string) ([]fs.FileInfo, error) { return readBlueprintDir(files, name) }
	fm["toYaml"] = toYAML
	fm["fromYaml"] = fromYAML
	fm["parseOCIRef"] = ParseOCIRef
	fm["ociRefRepo"] = func(ref string) (string, error) {
		parts, err := ParseOCIRef(ref)
		return parts[0], err
	}
	fm["ociRefVersion"] = func(ref string) (string, error) {
		parts, err := ParseOCIRef(ref)
		return parts[1], err
	}
	for k, v := range componentFuncs(r.req.Component) {
		fm[k] = v
	}
	return fm
}

// readBlueprintDir lists a directory of the blueprint filesystem the way
// Landscaper's readDir does (file infos with .Name, .IsDir, .Size).
func readBlueprintDir(files fs.FS, name string) ([]fs.FileInfo, error) {
	if files == nil {
		return nil, fmt.Errorf("readDir %q: the blueprint has no filesystem", name)
	}
	clean, err := blueprintPath(name)
	if err != nil {
		return nil, fmt.Errorf("readDir: %w", err)
	}
	entries, err := fs.ReadDir(files, clean)
	if err != nil {
		return nil, fmt.Errorf("readDir %q: %w", name, err)
	}
	infos := make([]fs.FileInfo, 0, len(entries))
	for _, e := range entries {
		info, err := e.Info()
		if err != nil {
			return nil, fmt.Errorf("readDir %q: %w", name, err)
		}
		infos = append(infos, info)
	}
	return infos, nil
}

// toYAML marshals v; like Landscaper (and Helm) it swallows errors into an
// empty string and drops the trailing newline.
func toYAML(v any) string {
	data, err := yaml.Marshal(v)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(string(data), "\n")
}

func fromYAML(s string) (any, error) {
	var out any
	err := yaml.Unmarshal([]byte(s), &out)
	return out, err
}
