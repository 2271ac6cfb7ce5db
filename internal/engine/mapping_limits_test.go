package engine

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// TestDataMappings_RenderLimits proves an installation's data mappings run
// under the limits its blueprint renders with (the provider's render_limits),
// not under the defaults: a mapping over the configured max_bytes
// fails, naming the field, and the same mapping passes without the limit.
func TestDataMappings_RenderLimits(t *testing.T) {
	// A 100 kB value: far below the default max_bytes, above the 20 kB set
	// here, which the blueprint's own templates stay well under.
	big := json.RawMessage(`"` + strings.Repeat("x", 100<<10) + `"`)
	small := template.Limits{MaxBytes: 20 << 10}
	for _, field := range []string{"importDataMappings", "exportDataMappings"} {
		t.Run(field, func(t *testing.T) {
			spec := rootSpec(t, treeBlueprint("", subinstallation("db", componentBlueprint(""), "prefix", "final")))
			if field == "importDataMappings" {
				spec.ImportDataMappings = map[string]json.RawMessage{"m": big}
			} else {
				spec.ExportDataMappings = map[string]json.RawMessage{"m": big}
			}
			e, _, _ := newEngine()
			if _, err := e.Apply(context.Background(), spec, nil); err != nil {
				t.Fatalf("default limits: %v", err)
			}
			spec.Blueprint = spec.Blueprint.WithLimits(small)
			e, _, _ = newEngine()
			_, err := e.Apply(context.Background(), spec, nil)
			if err == nil || !strings.Contains(err.Error(), field) || !strings.Contains(err.Error(), "exceeds 20480 bytes") {
				t.Fatalf("want the %s limit error, got %v", field, err)
			}
		})
	}
}
