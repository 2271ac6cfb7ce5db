package sandbox

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
)

// job is what the parent sends first.
type job struct {
	Input  json.RawMessage `json:"input"`
	Limits Limits          `json:"limits"`
}

// message is one line the child writes: a question or its result.
type message struct {
	Call   *call   `json:"call,omitempty"`
	Result *result `json:"result,omitempty"`
}

type call struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

type reply struct {
	Value json.RawMessage `json:"value,omitempty"`
	Error string          `json:"error,omitempty"`
}

type result struct {
	Output json.RawMessage `json:"output,omitempty"`
	Error  string          `json:"error,omitempty"`
	// TooLarge is the size of an output over Limits.MaxBytes, which the
	// child does not send.
	TooLarge int64 `json:"tooLarge,omitempty"`
}

// JobError is the handler's own error, as its text: the job ran in the
// child and failed, where every other error of Run is the sandbox's.
type JobError struct{ Text string }

func (e *JobError) Error() string { return e.Text }

// Answer answers the child's question name with args (JSON).
type Answer func(name string, args json.RawMessage) (any, error)

// maxLine bounds one message from the child.
const maxLine = 256 << 20

// Run does the job of kind (Serve) with input in a child process within
// l and decodes its result into out; answer answers the child's
// questions (nil: none are answered). The child is killed — and Run
// returns only once it is gone — when the timeout passes, ctx ends or
// it breaks the protocol. A limit it exceeded is a *LimitError; the
// handler's error comes back as a *JobError with its text.
func Run(ctx context.Context, kind string, input any, l Limits, answer Answer, out any) error {
	l = l.WithDefaults()
	in, err := json.Marshal(input)
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	caller := ctx
	ctx, cancel := context.WithTimeout(ctx, l.Timeout)
	defer cancel()
	cmd := exec.Command(exe, childArg, kind)
	cmd.Env = []string{childEnv + "=1"}
	cmd.Dir = os.TempDir()
	stderr := &cappedBuffer{max: 8 << 10}
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("sandbox: %w", err)
	}
	// A child busy computing reads no pipe: only a kill stops it.
	stop := context.AfterFunc(ctx, func() { _ = cmd.Process.Kill() })
	defer stop()

	res, protoErr := converse(job{Input: in, Limits: l}, stdin, stdout, answer)
	_ = stdin.Close()
	if protoErr != nil {
		_ = cmd.Process.Kill()
	}
	waitErr := cmd.Wait()
	switch {
	case protoErr == nil:
	case caller.Err() != nil:
		return fmt.Errorf("stopped: %w", caller.Err())
	case ctx.Err() != nil:
		return &LimitError{What: fmt.Sprintf("took longer than %s", l.Timeout), Setting: "timeout"}
	default:
		return failure(l, stderr.String(), waitErr, protoErr)
	}
	switch {
	case res.TooLarge > 0 || int64(len(res.Output)) > l.MaxBytes:
		n := max(res.TooLarge, int64(len(res.Output)))
		return &LimitError{What: fmt.Sprintf("the rendered output (%d bytes as JSON) exceeds %d bytes", n, l.MaxBytes), Setting: "max_bytes"}
	case res.Error != "":
		return &JobError{Text: res.Error}
	}
	if err := json.Unmarshal(res.Output, out); err != nil {
		return fmt.Errorf("sandbox: reading the result: %w", err)
	}
	return nil
}

// converse sends the job and answers the child's questions until it
// reports its result.
func converse(j job, stdin io.Writer, stdout io.Reader, answer Answer) (result, error) {
	enc := json.NewEncoder(stdin)
	if err := enc.Encode(j); err != nil {
		return result{}, err
	}
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), int(min(maxLine, 2*j.Limits.MaxBytes+1<<20)))
	for sc.Scan() {
		var msg message
		if err := json.Unmarshal(sc.Bytes(), &msg); err != nil {
			return result{}, fmt.Errorf("unreadable message: %w", err)
		}
		switch {
		case msg.Result != nil:
			return *msg.Result, nil
		case msg.Call != nil:
			if err := enc.Encode(answerOf(*msg.Call, answer)); err != nil {
				return result{}, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return result{}, err
	}
	return result{}, io.ErrUnexpectedEOF
}

func answerOf(c call, answer Answer) reply {
	if answer == nil {
		return reply{Error: fmt.Sprintf("unknown question %q", c.Name)}
	}
	v, err := answer(c.Name, c.Args)
	if err != nil {
		return reply{Error: err.Error()}
	}
	data, err := json.Marshal(v)
	if err != nil {
		return reply{Error: fmt.Sprintf("%s: %v", c.Name, err)}
	}
	return reply{Value: data}
}

// failure explains why the child died without a result. Its stderr is
// classified, never quoted: it may hold parts of the input.
func failure(l Limits, stderr string, waitErr, protoErr error) error {
	switch {
	case strings.Contains(stderr, "stack exceeds") || strings.Contains(stderr, "stack overflow"):
		return &LimitError{What: fmt.Sprintf("recursion deeper than the stack limit of %d bytes", l.MaxStackBytes), Setting: "max_stack_mib"}
	case strings.Contains(stderr, memoryMessage) || strings.Contains(stderr, "out of memory") ||
		strings.Contains(stderr, "cannot allocate memory"):
		return &LimitError{What: fmt.Sprintf("used more than %d bytes of memory", l.MaxMemoryBytes), Setting: "max_memory_mib"}
	}
	if waitErr != nil {
		return fmt.Errorf("the sandbox process failed (%w)", waitErr)
	}
	return fmt.Errorf("the sandbox process failed (%w)", protoErr)
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
