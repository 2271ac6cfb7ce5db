package template

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// Spiff has no context, no step or memory limit and recurses on the Go
// stack for every lambda call: a recursive lambda overflows the stack,
// which Go cannot recover from, and an alias bomb expands to gigabytes.
// Spiff executions therefore run in a child process — the provider's own
// executable, started with sandboxArg — that holds nothing but the
// template, its values and the blueprint files: no environment (Spiff's
// env() reads it), no network (Spiff's read() fetches URLs), bounded
// stack and memory, killed when the deadline passes or the request is
// cancelled. When it dies, only the child dies.

// sandboxArg and sandboxEnv mark the child; both must be present.
const (
	sandboxArg = "__landscaper_spiff_sandbox"
	sandboxEnv = "TF_LANDSCAPER_SANDBOX"
)

// spiffJob is what the child renders.
type spiffJob struct {
	Name      string            `json:"name"`
	Template  []byte            `json:"template"`
	Values    json.RawMessage   `json:"values"`
	State     json.RawMessage   `json:"state,omitempty"`
	WithState bool              `json:"withState"`
	Files     map[string][]byte `json:"files,omitempty"`
	HasFiles  bool              `json:"hasFiles"`
	Limits    Limits            `json:"limits"`
	// Mappings, when set, makes the job a set of data mappings: each is
	// its own Spiff template over Values; Name is their field name.
	Mappings map[string]json.RawMessage `json:"mappings,omitempty"`
}

// sandboxMsg is one line the child writes: a look-up call it needs
// answered, or its outcome.
type sandboxMsg struct {
	Call   *sandboxCall   `json:"call,omitempty"`
	Result *sandboxResult `json:"result,omitempty"`
}

type sandboxCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// sandboxReply answers a sandboxCall.
type sandboxReply struct {
	Value json.RawMessage `json:"value,omitempty"`
	Error string          `json:"error,omitempty"`
}

type sandboxResult struct {
	Output json.RawMessage `json:"output,omitempty"`
	State  json.RawMessage `json:"state,omitempty"`
	Error  string          `json:"error,omitempty"`
	// TooLarge is the size of an output and state over Limits.MaxBytes,
	// which the child does not send.
	TooLarge int64 `json:"tooLarge,omitempty"`
}

// size is what the execution rendered: output and state.
func (r sandboxResult) size() int64 {
	if r.TooLarge > 0 {
		return r.TooLarge
	}
	return int64(len(r.Output) + len(r.State))
}

// checkOutputSize reports an output and state over max_bytes, the bound
// of any execution's output (security.md), as GoTemplate's output is.
func checkOutputSize(r sandboxResult, l Limits) error {
	if n := r.size(); n > l.MaxBytes {
		return limitError(fmt.Sprintf("the rendered output (%d bytes as JSON) exceeds %d bytes", n, l.MaxBytes), "max_bytes")
	}
	return nil
}

// maxSandboxLine bounds one message from the child.
const maxSandboxLine = 256 << 20

// runSandboxed renders job in a child process; lookups answer the
// component functions the template calls.
func runSandboxed(ctx context.Context, job spiffJob, lookups map[string]lookupFunc) (sandboxResult, error) {
	exe, err := os.Executable()
	if err != nil {
		return sandboxResult{}, fmt.Errorf("spiff sandbox: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, job.Limits.Timeout)
	defer cancel()
	cmd := exec.Command(exe, sandboxArg)
	cmd.Env = []string{sandboxEnv + "=1"}
	cmd.Dir = os.TempDir()
	stderr := &cappedBuffer{max: 8 << 10}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return sandboxResult{}, fmt.Errorf("spiff sandbox: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return sandboxResult{}, fmt.Errorf("spiff sandbox: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return sandboxResult{}, fmt.Errorf("spiff sandbox: %w", err)
	}
	// Kill the child when the deadline passes or the request ends; a
	// child blocked in Spiff reads no pipe, so closing pipes is not enough.
	stop := context.AfterFunc(ctx, func() { _ = cmd.Process.Kill() })
	defer stop()

	res, protoErr := converse(job, stdin, stdout, lookups)
	_ = stdin.Close()
	if protoErr != nil {
		_ = cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	switch {
	case protoErr == nil:
		if err := checkOutputSize(res, job.Limits); err != nil {
			return sandboxResult{}, err
		}
		return res, nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return sandboxResult{}, limitError(fmt.Sprintf("rendering took longer than %s", job.Limits.Timeout), "timeout")
	case ctx.Err() != nil:
		return sandboxResult{}, fmt.Errorf("rendering stopped: %w", ctx.Err())
	}
	return sandboxResult{}, childFailure(job.Limits, stderr.String(), waitErr, protoErr)
}

// converse sends the job and serves the child's calls until it reports
// its result.
func converse(job spiffJob, stdin io.Writer, stdout io.Reader, lookups map[string]lookupFunc) (sandboxResult, error) {
	enc := json.NewEncoder(stdin)
	if err := enc.Encode(job); err != nil {
		return sandboxResult{}, err
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), int(min(maxSandboxLine, 2*job.Limits.MaxBytes+1<<20)))
	for sc.Scan() {
		var msg sandboxMsg
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			return sandboxResult{}, fmt.Errorf("unreadable message: %w", err)
		}
		switch {
		case msg.Result != nil:
			return *msg.Result, nil
		case msg.Call != nil:
			if err := enc.Encode(answer(*msg.Call, lookups)); err != nil {
				return sandboxResult{}, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return sandboxResult{}, err
	}
	return sandboxResult{}, io.ErrUnexpectedEOF
}

// answer runs one look-up the child asked for.
func answer(call sandboxCall, lookups map[string]lookupFunc) sandboxReply {
	fn, ok := lookups[call.Name]
	if !ok {
		return sandboxReply{Error: fmt.Sprintf("unknown function %q", call.Name)}
	}
	var args []any
	if err := json.Unmarshal(call.Args, &args); err != nil {
		return sandboxReply{Error: fmt.Sprintf("%s: arguments: %v", call.Name, err)}
	}
	v, err := fn(args)
	if err != nil {
		return sandboxReply{Error: err.Error()}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return sandboxReply{Error: fmt.Sprintf("%s: result: %v", call.Name, err)}
	}
	return sandboxReply{Value: data}
}

// childFailure explains why the child died without a result. Its stderr
// is classified, never quoted: it may hold parts of the template.
func childFailure(l Limits, stderr string, waitErr, protoErr error) error {
	switch {
	case strings.Contains(stderr, "stack exceeds") || strings.Contains(stderr, "stack overflow"):
		return limitError(fmt.Sprintf("Spiff recursion deeper than the stack limit of %d bytes (a lambda calling itself without end?)", l.MaxStackBytes), "max_stack_mib")
	case strings.Contains(stderr, sandboxMemoryMessage) || strings.Contains(stderr, "out of memory") ||
		strings.Contains(stderr, "cannot allocate memory"):
		return limitError(fmt.Sprintf("Spiff used more than %d bytes of memory", l.MaxMemoryBytes), "max_memory_mib")
	}
	if waitErr != nil {
		return fmt.Errorf("the Spiff sandbox process failed (%w)", waitErr)
	}
	return fmt.Errorf("the Spiff sandbox process failed (%w)", protoErr)
}

// cappedBuffer keeps the first max bytes written to it.
type cappedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

func (b *cappedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// sandboxPoll is how often the child compares its memory with the limit.
const sandboxPoll = 10 * time.Millisecond
