package template

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/sandbox"
)

// Spiff has no context, no step or memory limit and recurses on the Go
// stack for every lambda call: a recursive lambda overflows the stack,
// which Go cannot recover from, and an alias bomb expands to gigabytes.
// Spiff executions and data mappings therefore run in the child process
// of package sandbox, which holds nothing but the template, its values and
// the blueprint files: no environment (Spiff's env() reads it), no network
// (Spiff's read() fetches URLs), bounded stack and memory, killed when the
// deadline passes or the request is cancelled. When it dies, only the
// child dies. The component functions a template calls are questions to
// the parent, where the component lives.

// spiffKind is the sandbox job that runs Spiff (sandbox_child.go).
const spiffKind = "spiff"

// spiffJob is what the child renders.
type spiffJob struct {
	Name      string            `json:"name"`
	Template  []byte            `json:"template"`
	Values    json.RawMessage   `json:"values"`
	State     json.RawMessage   `json:"state,omitempty"`
	WithState bool              `json:"withState"`
	Files     map[string][]byte `json:"files,omitempty"`
	HasFiles  bool              `json:"hasFiles"`
	// Mappings, when set, makes the job a set of data mappings: each is
	// its own Spiff template over Values; Name is their field name.
	Mappings map[string]json.RawMessage `json:"mappings,omitempty"`
}

// spiffResult is what the child rendered.
type spiffResult struct {
	Output json.RawMessage `json:"output,omitempty"`
	State  json.RawMessage `json:"state,omitempty"`
}

// runSandboxed renders job in the sandbox within l (max_bytes bounds its
// output and state, as GoTemplate's output); lookups answer the component
// functions the template calls. Spiff's own error is a *sandbox.JobError.
func runSandboxed(ctx context.Context, job spiffJob, l Limits, lookups map[string]lookupFunc) (spiffResult, error) {
	var res spiffResult
	err := sandbox.Run(ctx, spiffKind, job, l.Sandbox(), answerLookups(lookups), &res)
	var limit *sandbox.LimitError
	if errors.As(err, &limit) && limit.Setting == "max_stack_mib" {
		return res, &sandbox.LimitError{What: "Spiff " + limit.What + " (a lambda calling itself without end?)", Setting: limit.Setting}
	}
	return res, err
}

// answerLookups answers the child's calls of component functions.
func answerLookups(lookups map[string]lookupFunc) sandbox.Answer {
	return func(name string, raw json.RawMessage) (any, error) {
		fn, ok := lookups[name]
		if !ok {
			return nil, fmt.Errorf("unknown function %q", name)
		}
		var args []any
		if err := json.Unmarshal(raw, &args); err != nil {
			return nil, fmt.Errorf("%s: arguments: %w", name, err)
		}
		return fn(args)
	}
}
