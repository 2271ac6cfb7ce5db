// Package template runs the template executions of a blueprint
// (import, deploy, subinstallation and export executions) with the
// GoTemplate or the Spiff engine behind one interface, so both see the same
// inputs, the same blueprint filesystem and the same extra functions.
package template

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"strconv"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
)

// Template types as blueprints write them.
const (
	TypeGoTemplate = "GoTemplate"
	TypeSpiff      = "Spiff"
)

// Execution is one entry of importExecutions, deployExecutions,
// subinstallationExecutions or exportExecutions.
type Execution struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// File is a path in the blueprint filesystem holding the template.
	File string `json:"file,omitempty"`
	// Template is the inline template: a string, or for Spiff also a YAML
	// structure.
	Template json.RawMessage `json:"template,omitempty"`
}

// Request is one run of one execution.
type Request struct {
	// Kind names the list the execution belongs to ("deploy execution", …)
	// and prefixes every error.
	Kind      string
	Execution Execution
	// Files is the blueprint filesystem: templates, include, readFile and
	// Spiff's file functions see only this.
	Files     fs.FS
	Component *component.Component
	// Values are the top-level template inputs (imports, cd, …). Executors
	// add `state` themselves from State.
	Values map[string]any
	// State is the previous state output of this execution, nil if none.
	State json.RawMessage
	// WithState says whether the execution kind has state at all (import
	// executions have none).
	WithState bool
	// RejectNoValue makes output containing "<no value>" an error (GoTemplate
	// only, as in Landscaper for all but import executions).
	RejectNoValue bool
	// Context is the request's context: cancelling it stops the execution.
	// Nil means context.Background().
	Context context.Context
	// Cluster lets getServiceAccountKubeconfig reach a target's cluster;
	// nil (plan-time renders) makes it an error (see clusterfuncs.go).
	Cluster ClusterAccess
	// Limits bound the execution; zero fields are DefaultLimits'.
	Limits Limits
}

// Result is the decoded output document of an execution and its state.
type Result struct {
	Output map[string]any
	// State is the new state to hand back next time; nil when the execution
	// produced none.
	State json.RawMessage
}

// Executor renders one execution.
type Executor interface {
	// Execute MUST NOT panic, MUST confine file access to req.Files,
	// MUST stay within req.Limits and stop when req.Context ends, and MUST
	// name req.Kind and the execution in every error.
	Execute(req Request) (Result, error)
}

// Run executes req with the engine its execution type names.
func Run(req Request) (Result, error) {
	var ex Executor
	switch req.Execution.Type {
	case TypeGoTemplate:
		ex = GoTemplate{}
	case TypeSpiff:
		ex = Spiff{}
	default:
		return Result{}, fmt.Errorf("%s %s: unknown template type %q (want %s or %s)",
			req.Kind, req.Execution.label(), req.Execution.Type, TypeGoTemplate, TypeSpiff)
	}
	return ex.Execute(req)
}

// withDefaults fills in the context and the limits.
func (r Request) withDefaults() Request {
	if r.Context == nil {
		r.Context = context.Background()
	}
	r.Limits = r.Limits.WithDefaults()
	return r
}

// label names the execution in errors: its quoted name, or "(unnamed)"
// (Landscaper does not require execution names).
func (e Execution) label() string {
	if e.Name == "" {
		return "(unnamed)"
	}
	return strconv.Quote(e.Name)
}

// Describe names the execution in messages as template errors do: kind,
// name and template file, e.g. `deploy execution "main" (deploy.yaml)`.
func (e Execution) Describe(kind string) string {
	return kind + " " + e.label() + " (" + e.source() + ")"
}

// source names where an execution's template comes from, for errors.
func (e Execution) source() string {
	if e.File != "" {
		return e.File
	}
	return "inline template"
}

// errorf prefixes an error with the execution kind, name and template
// file, and masks URL credentials and query strings in it (a template may
// have put an import's URL into its error).
func (r Request) errorf(format string, args ...any) error {
	err := fmt.Errorf("%s: %w", r.Execution.Describe(r.Kind), fmt.Errorf(format, args...))
	return scrubbed{msg: redact.URLs(err.Error()), err: err}
}

// scrubbed is an error with a masked message that still unwraps to its
// cause (errors.Is(err, sandbox.ErrLimit) keeps working).
type scrubbed struct {
	msg string
	err error
}

func (e scrubbed) Error() string { return e.msg }
func (e scrubbed) Unwrap() error { return e.err }
