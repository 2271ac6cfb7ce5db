package template

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/mandelsoft/spiff/dynaml"
	"github.com/mandelsoft/vfs/pkg/memoryfs"
	"github.com/mandelsoft/vfs/pkg/vfs"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// sandboxMemoryMessage is what the child prints when its memory watchdog
// stops it.
const sandboxMemoryMessage = "landscaper sandbox: memory limit exceeded"

// The child is the provider's (or a test's) own executable; this init runs
// before main, so the sandbox never starts the provider server. It only
// acts when both markers are present.
func init() {
	if len(os.Args) == 2 && os.Args[1] == sandboxArg && os.Getenv(sandboxEnv) != "" {
		os.Exit(sandboxMain(os.Stdin, os.Stdout))
	}
}

// sandboxMain renders one job from in and writes the messages to out.
func sandboxMain(in io.Reader, out io.Writer) int {
	os.Clearenv()
	dynaml.ReloadEnv()
	// Spiff's read() fetches http(s) URLs with the default client.
	http.DefaultTransport = noNetwork{}
	http.DefaultClient = &http.Client{Transport: noNetwork{}}

	r := bufio.NewReaderSize(in, 64<<10)
	dec := json.NewDecoder(r)
	var job spiffJob
	if err := dec.Decode(&job); err != nil {
		fmt.Fprintln(os.Stderr, "landscaper sandbox: reading the job:", err)
		return 2
	}
	limitSandbox(job.Limits)

	conn := &parentConn{dec: dec, enc: json.NewEncoder(out)}
	res := renderJob(job, conn)
	if err := conn.send(sandboxMsg{Result: &res}); err != nil {
		return 2
	}
	return 0
}

// limitSandbox caps the stack and watches the memory of this process.
func limitSandbox(l Limits) {
	debug.SetMaxStack(int(l.MaxStackBytes))
	debug.SetMemoryLimit(l.MaxMemoryBytes)
	limitAddressSpace(l.MaxMemoryBytes)
	// The parent kills the child at the deadline; should the parent be
	// gone, the child still ends shortly after it.
	time.AfterFunc(l.Timeout+5*time.Second, func() { os.Exit(4) })
	go func() {
		sample := []metrics.Sample{{Name: "/memory/classes/total:bytes"}}
		for range time.Tick(sandboxPoll) {
			metrics.Read(sample)
			if sample[0].Value.Kind() == metrics.KindUint64 && int64(sample[0].Value.Uint64()) > l.MaxMemoryBytes {
				fmt.Fprintln(os.Stderr, sandboxMemoryMessage)
				os.Exit(3)
			}
		}
	}()
}

// renderJob runs the Spiff template; panics become the result's error.
func renderJob(job spiffJob, conn *parentConn) (res sandboxResult) {
	defer func() {
		if p := recover(); p != nil {
			res = sandboxResult{Error: fmt.Sprintf("spiff panicked: %v", p)}
		}
	}()
	var values map[string]any
	if len(job.Values) > 0 {
		if err := unmarshalNumbers(job.Values, &values); err != nil {
			return sandboxResult{Error: fmt.Sprintf("values: %v", err)}
		}
	}
	var files vfs.FileSystem
	if job.HasFiles {
		mem := memoryfs.New()
		for p, data := range job.Files {
			if err := mem.MkdirAll(path.Dir(p), 0o755); err != nil {
				return sandboxResult{Error: err.Error()}
			}
			if err := vfs.WriteFile(mem, p, data, 0o644); err != nil {
				return sandboxResult{Error: err.Error()}
			}
		}
		files = mem
	}
	if job.Mappings != nil {
		output, err := cascadeMappings(job, values)
		if err != nil {
			return sandboxResult{Error: err.Error()}
		}
		return bounded(sandboxResult{Output: output}, job.Limits)
	}
	output, state, err := cascade(job, files, values, conn.lookups())
	if err != nil {
		return sandboxResult{Error: err.Error()}
	}
	return bounded(sandboxResult{Output: output, State: state}, job.Limits)
}

// bounded keeps an output over max_bytes in the child: the parent learns
// its size only (checkOutputSize).
func bounded(res sandboxResult, l Limits) sandboxResult {
	if n := res.size(); n > l.MaxBytes {
		return sandboxResult{TooLarge: n}
	}
	return res
}

func unmarshalNumbers(data []byte, v any) error {
	return api.DecodeExact(data, v, api.AllowTrailing)
}

// parentConn is the child's side of the conversation.
type parentConn struct {
	mu  sync.Mutex
	dec *json.Decoder
	enc *json.Encoder
}

func (c *parentConn) send(m sandboxMsg) error { return c.enc.Encode(m) }

// lookups are proxies of the component functions: the component lives in
// the parent.
func (c *parentConn) lookups() map[string]lookupFunc {
	out := map[string]lookupFunc{}
	for name := range sharedLookups(Request{}) {
		out[name] = func(args []any) (any, error) {
			data, err := json.Marshal(args)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			c.mu.Lock()
			defer c.mu.Unlock()
			if err := c.send(sandboxMsg{Call: &sandboxCall{Name: name, Args: data}}); err != nil {
				return nil, err
			}
			var reply sandboxReply
			if err := c.dec.Decode(&reply); err != nil {
				return nil, err
			}
			if reply.Error != "" {
				return nil, errors.New(reply.Error)
			}
			return reply.Value, nil
		}
	}
	return out
}

// noNetwork refuses every request: rendering reaches no network.
type noNetwork struct{}

func (noNetwork) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, errors.New("network access is disabled while rendering (a blueprint reaches no network at plan)")
}
