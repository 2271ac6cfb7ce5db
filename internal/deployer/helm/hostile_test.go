package helm_test

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/helm"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/sandbox"
)

// Hostile charts of a blueprint, rendered at plan: each is stopped by the
// render limit it exceeds, named in the error; the provider's process
// never holds what the chart builds, and nothing keeps running after the
// plan got its answer (Helm's engine takes no context: an in-process
// rendering abandoned at the deadline ran on).
func TestPreview_HostileCharts(t *testing.T) {
	for _, tc := range []struct {
		name, template, setting string
		limits                  sandbox.Limits
	}{
		// Seven lines that double a string to 1 GiB: 1.8–2.3 GiB of the
		// plan's memory before.
		{"memory", `{{- $s := "0123456789abcdef" }}
{{- range until 26 }}{{ $s = printf "%s%s" $s $s }}{{ end }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: big
data: {size: "{{ len $s }}"}`, "max_memory_mib", sandbox.Limits{Timeout: 30 * time.Second, MaxMemoryBytes: 128 << 20}},
		// 10^10 iterations: the plan never returned.
		{"time", `{{ range until 100000 }}{{ range until 100000 }}{{ end }}{{ end }}`, "timeout", sandbox.Limits{Timeout: 2 * time.Second}},
		// 4 MB of output, past max_bytes. Its timeout is generous: on a
		// machine busy with builds the rendering took over 30 s, and the
		// case is about the output limit, not the clock.
		{"output", `apiVersion: v1
kind: ConfigMap
metadata:
  name: wide
data: {x: "{{ range until 400000 }}0123456789{{ end }}"}`, "max_bytes", sandbox.Limits{MaxBytes: 1 << 20, Timeout: 50 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ch := testChart(t, nil, map[string]string{"hostile.yaml": tc.template})
			req := previewRequest(t, ch, nil)
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			_, err := helm.New(nil).WithRenderLimits(tc.limits).Preview(ctx, req)
			took := time.Since(start)
			var le *sandbox.LimitError
			if !errors.As(err, &le) || le.Setting != tc.setting || !strings.Contains(err.Error(), "render_limits."+tc.setting) {
				t.Fatalf("err = %v, want the %s limit named", err, tc.setting)
			}
			if limit := tc.limits.WithDefaults().Timeout + 5*time.Second; took > limit {
				t.Errorf("returned after %s, more than %s", took, limit)
			}
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if grown := int64(after.TotalAlloc - before.TotalAlloc); grown > 64<<20 {
				t.Errorf("the provider's process allocated %d MiB for the chart", grown>>20)
			}
			// Nothing runs on: this process uses (almost) no CPU now.
			cpu := cpuTime()
			time.Sleep(time.Second)
			if used := cpuTime() - cpu; used > 300*time.Millisecond {
				t.Errorf("the abandoned rendering still runs: %s of CPU in the second after the plan returned", used)
			}
		})
	}
}
