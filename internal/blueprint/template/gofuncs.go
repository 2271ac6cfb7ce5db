package template

import (
	"errors"
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
		// Rendering runs at plan, on the user's machine: a blueprint
		// reaches no network then (docs/guides/security.md). The name stays
		// defined so that templates using it only in untaken branches parse.
		fm["getHostByName"] = func(string) (string, error) {
			return "", errors.New("getHostByName: DNS look-ups are disabled while rendering (a blueprint reaches no network at plan)")
		}
		fm["until"] = func(count int) ([]int, error) {
			step := 1
			if count < 0 {
				step = -1
			}
			return boundedSequence(0, count, step)
		}
		fm["untilStep"] = boundedSequence
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

// baseFuncs is the function map of one GoTemplate run before metering
// (budget.metered).
func (r *goTemplateRun) baseFuncs() gotmpl.FuncMap {
	fm := gotmpl.FuncMap{}
	for k, v := range landscaperSprig() {
		fm[k] = v
	}
	files := r.req.Files
	fm["include"] = r.include
	fm["readFile"] = func(name string) ([]byte, error) { return readBlueprintFile(files, name) }
	fm["readDir"] = func(name string) ([]fs.FileInfo, error) { return readBlueprintDir(files, name) }
	fm["toYaml"] = toYAML
	fm["fromYaml"] = func(s string) (any, error) {
		if err := CheckYAMLAliases("fromYaml", []byte(s), r.req.Limits.MaxYAMLNodes); err != nil {
			return nil, err
		}
		return fromYAML(s)
	}
	fm["parseOCIRef"] = ParseOCIRef
	fm["ociRefRepo"] = func(ref string) (string, error) {
		parts, err := ParseOCIRef(ref)
		return parts[0], err
	}
	fm["ociRefVersion"] = func(ref string) (string, error) {
		parts, err := ParseOCIRef(ref)
		return parts[1], err
	}
	for k, v := range componentFuncs(r.req) {
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
	err := decodeYAML([]byte(s), &out)
	return out, err
}
