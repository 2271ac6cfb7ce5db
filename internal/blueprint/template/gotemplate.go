package template

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	gotmpl "text/template"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/sandbox"
)

// noValue is what text/template prints for a missing key under
// missingkey=zero; Landscaper treats it in rendered output as an error.
const noValue = "<no value>"

// maxIncludeDepth bounds recursive `include` of the same file.
const maxIncludeDepth = 100

// GoTemplate renders text/template executions with Sprig (minus env access)
// and Landscaper's extra functions.
type GoTemplate struct{}

var _ Executor = GoTemplate{}

// Execute renders the template, checks for "<no value>", and decodes the
// output as YAML.
func (GoTemplate) Execute(req Request) (res Result, err error) {
	req = req.withDefaults()
	text, name, err := goTemplateText(req)
	if err != nil {
		return Result{}, err
	}
	values := make(map[string]any, len(req.Values)+1)
	for k, v := range req.Values {
		values[k], _ = templateNumbers(v)
	}
	if req.WithState {
		state, err := decodeState(req.State)
		if err != nil {
			return Result{}, req.errorf("previous state: %w", err)
		}
		values["state"] = state
	}

	run := &goTemplateRun{req: req, includes: map[string]int{}, budget: newBudget(req.Context, req.Limits)}
	run.funcs = run.budget.metered(run.baseFuncs())
	out, err := run.render(name, text, values)
	if err != nil {
		return Result{}, req.errorf("%w", limitCause(err))
	}
	if req.RejectNoValue {
		if err := noValueError(out, name); err != nil {
			return Result{}, req.errorf("%w", err)
		}
	}
	if err := CheckYAMLAliases("rendered output", out, req.Limits.MaxYAMLNodes); err != nil {
		return Result{}, req.errorf("%w", err)
	}
	doc := map[string]any{}
	if err := decodeYAML(out, &doc); err != nil {
		msg := "rendered output is not a YAML object: " + YAMLErrorWithoutValues(err)
		if excerpt := renderedExcerpt(out, text, err); excerpt != "" {
			msg += "\n" + excerpt
		}
		return Result{}, req.errorf("%s", msg)
	}
	res.Output = doc
	if s, ok := doc["state"]; ok && s != nil {
		if res.State, err = json.Marshal(s); err != nil {
			return Result{}, req.errorf("state output: %w", err)
		}
	}
	return res, nil
}

// goTemplateText returns the template text and the name errors use for it.
func goTemplateText(req Request) (text, name string, err error) {
	ex := req.Execution
	if len(ex.Template) > 0 && string(ex.Template) != "null" {
		var s string
		if err := json.Unmarshal(ex.Template, &s); err != nil {
			return "", "", req.errorf("a GoTemplate template must be a string")
		}
		return s, ex.Name, nil
	}
	if ex.File != "" {
		data, err := readBlueprintFile(req.Files, ex.File)
		if err != nil {
			return "", "", req.errorf("%w", err)
		}
		return string(data), ex.File, nil
	}
	return "", "", req.errorf("neither file nor template is set")
}

// goTemplateRun is the state of one execution: include depth per file,
// the budget and the metered function map.
type goTemplateRun struct {
	req      Request
	includes map[string]int
	budget   *budget
	funcs    gotmpl.FuncMap
}

// render parses and executes text; a panic inside a template function or
// the template library becomes an error.
func (r *goTemplateRun) render(name, text string, data any) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			out, err = nil, fmt.Errorf("template %s: %v", name, p)
		}
	}()
	if err := r.budget.alive(); err != nil {
		return nil, err
	}
	buf := &limitedBuffer{max: int(r.budget.limits.MaxBytes)}
	funcs := make(gotmpl.FuncMap, len(r.funcs)+2)
	for k, v := range r.funcs {
		funcs[k] = v
	}
	for k, v := range r.budget.limitFuncs(buf.Len) {
		funcs[k] = v
	}
	tmpl, err := gotmpl.New(name).Funcs(funcs).Option("missingkey=zero").Parse(text)
	if err != nil {
		return nil, err
	}
	if err := meterTree(tmpl, funcs); err != nil {
		return nil, err
	}
	if err := tmpl.Execute(buf, data); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// include renders another file of the blueprint with the given data.
func (r *goTemplateRun) include(name string, data any) (string, error) {
	if r.includes[name] >= maxIncludeDepth {
		return "", &includeError{fmt.Errorf("include %q: nested more than %d times", name, maxIncludeDepth)}
	}
	r.includes[name]++
	defer func() { r.includes[name]-- }()
	text, err := readBlueprintFile(r.req.Files, name)
	if err != nil {
		return "", &includeError{fmt.Errorf("include: %w", err)}
	}
	out, err := r.render(name, string(text), data)
	if err != nil {
		// Hand the innermost failure up unchanged: text/template would
		// otherwise prefix one position per include level.
		var inner *includeError
		if errors.As(err, &inner) {
			return "", inner
		}
		return "", &includeError{err}
	}
	return string(out), nil
}

// includeError is the failure of the innermost include.
type includeError struct{ err error }

func (e *includeError) Error() string { return e.err.Error() }
func (e *includeError) Unwrap() error { return e.err }

// noValueError reports every line of out that contains "<no value>".
func noValueError(out []byte, name string) error {
	if !bytes.Contains(out, []byte(noValue)) {
		return nil
	}
	var lines []string
	for i, line := range strings.Split(string(out), "\n") {
		if col := strings.Index(line, noValue); col >= 0 {
			lines = append(lines, fmt.Sprintf("output line %d:%d", i+1, col+1))
			if len(lines) == 10 {
				break
			}
		}
	}
	return fmt.Errorf("rendered output of %s contains %q (a value the template reads is missing) at %s",
		name, noValue, strings.Join(lines, ", "))
}

// decodeState parses a previous state; no state is an empty object so
// templates can read `.state.x` without guards.
func decodeState(raw json.RawMessage) (any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return map[string]any{}, nil
	}
	var v any
	if err := DecodeJSON(raw, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// readBlueprintFile reads a file of the blueprint filesystem; fs.FS already
// rejects paths escaping its root, this adds a readable error.
func readBlueprintFile(files fs.FS, name string) ([]byte, error) {
	if files == nil {
		return nil, fmt.Errorf("read %q: the blueprint has no filesystem", name)
	}
	clean, err := blueprintPath(name)
	if err != nil {
		return nil, err
	}
	data, err := fs.ReadFile(files, clean)
	if err != nil {
		return nil, fmt.Errorf("read %q from the blueprint: %w", name, err)
	}
	return data, nil
}

// blueprintPath turns "/VERSION", "./VERSION" or "VERSION" into the fs.FS
// path "VERSION" and rejects paths leaving the blueprint.
func blueprintPath(name string) (string, error) {
	clean := path.Clean("/" + name)[1:]
	if clean == "" {
		clean = "."
	}
	if !fs.ValidPath(clean) || strings.Contains(name, "\x00") {
		return "", fmt.Errorf("%q is not a path inside the blueprint", name)
	}
	return clean, nil
}

// limitCause reduces an error that reports an exceeded limit to that
// report: text/template wraps it in the position of the injected metering
// node, which names no place in the blueprint's own template.
func limitCause(err error) error {
	var limit *sandbox.LimitError
	if errors.As(err, &limit) {
		return limit
	}
	return err
}

// limitedBuffer is a bytes.Buffer that refuses to grow past max.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if b.Len()+len(p) > b.max {
		return 0, limitError(fmt.Sprintf("the rendered output exceeds %d bytes", b.max), "max_bytes")
	}
	return b.Buffer.Write(p)
}
