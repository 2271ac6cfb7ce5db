package sandbox

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/startup"
)

// The marker of a child: both the argument and the environment variable.
const (
	childArg = "__landscaper_sandbox"
	childEnv = "TF_LANDSCAPER_SANDBOX_JOB"
)

// memoryMessage is what the child prints when its watchdog stops it.
const memoryMessage = "landscaper sandbox: memory limit exceeded"

// poll is how often the child compares its memory with the limit.
const poll = 10 * time.Millisecond

// Call asks the parent the question name with args (JSON-encoded) and
// returns its JSON answer.
type Call func(name string, args any) (json.RawMessage, error)

// Handler does one job in the child: input is what the parent sent, call
// asks it questions. Its result is sent back as JSON.
type Handler func(input json.RawMessage, call Call) (any, error)

// Serve does the job of kind with h and ends the process when this
// process is a child Run started for kind; otherwise it returns at once.
// Call it from an init function of the package that owns kind.
func Serve(kind string, h Handler) {
	if len(os.Args) != 3 || os.Args[1] != childArg || os.Args[2] != kind || os.Getenv(childEnv) == "" {
		return
	}
	os.Exit(childMain(h, os.Stdin, os.Stdout))
}

func childMain(h Handler, in io.Reader, out io.Writer) int {
	startup.Resume() // the job runs from an init function, before main would
	os.Clearenv()
	http.DefaultTransport = noNetwork{}
	http.DefaultClient = &http.Client{Transport: noNetwork{}}
	dec := json.NewDecoder(bufio.NewReaderSize(in, 64<<10))
	var j job
	if err := dec.Decode(&j); err != nil {
		fmt.Fprintln(os.Stderr, "landscaper sandbox: reading the job:", err)
		return 2
	}
	limitProcess(j.Limits)
	p := &parent{dec: dec, enc: json.NewEncoder(out)}
	res := run(h, j, p.call)
	if err := p.send(message{Result: &res}); err != nil {
		return 2
	}
	return 0
}

// run does the job; a panic becomes its error.
func run(h Handler, j job, call Call) (res result) {
	defer func() {
		if p := recover(); p != nil {
			res = result{Error: fmt.Sprintf("panic: %v", p)}
		}
	}()
	v, err := h(j.Input, call)
	if err != nil {
		return result{Error: err.Error()}
	}
	b, err := json.Marshal(v)
	if err != nil {
		return result{Error: err.Error()}
	}
	if int64(len(b)) > j.Limits.MaxBytes {
		return result{TooLarge: int64(len(b))} // the parent learns its size only
	}
	return result{Output: b}
}

// limitProcess caps the stack and memory of this process and ends it
// shortly after the deadline, should the parent be gone.
func limitProcess(l Limits) {
	debug.SetMaxStack(int(l.MaxStackBytes))
	debug.SetMemoryLimit(l.MaxMemoryBytes)
	limitAddressSpace(l.MaxMemoryBytes)
	time.AfterFunc(l.Timeout+5*time.Second, func() { os.Exit(4) })
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
		for range time.Tick(poll) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && int64(sample[0].Value.Uint64()) > l.MaxMemoryBytes {
				fmt.Fprintln(os.Stderr, memoryMessage)
				os.Exit(3)
			}
		}
	}()
}

// parent is the child's side of the conversation.
type parent struct {
	mu  sync.Mutex
	dec *json.Decoder
	enc *json.Encoder
}

func (p *parent) send(m message) error { return p.enc.Encode(m) }

func (p *parent) call(name string, args any) (json.RawMessage, error) {
	data, err := json.Marshal(args)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.send(message{Call: &call{Name: name, Args: data}}); err != nil {
		return nil, err
	}
	var r reply
	if err := p.dec.Decode(&r); err != nil {
		return nil, err
	}
	if r.Error != "" {
		return nil, errors.New(r.Error)
	}
	return r.Value, nil
}

// noNetwork refuses every request of the default HTTP client.
type noNetwork struct{}

func (noNetwork) RoundTrip(*http.Request) (*http.Response, error) {
	return nil, errors.New("network access is disabled while rendering")
}
