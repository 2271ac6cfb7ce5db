package template

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestSpiff_OutputBoundedByMaxBytes proves max_bytes bounds what a Spiff
// execution and a Spiff data mapping return, as it bounds a GoTemplate's:
// a string doubled to 512 KiB fails under a 256 KiB limit, naming the limit,
// and passes under the default.
func TestSpiff_OutputBoundedByMaxBytes(t *testing.T) {
	tmpl := spiffDoubling(9)
	small := Limits{MaxBytes: 256 << 10}
	_, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeSpiff, tmpl), Limits: small})
	if err == nil || !strings.Contains(err.Error(), "max_bytes") || !strings.Contains(err.Error(), `deploy execution "t"`) {
		t.Errorf("execution: want a max_bytes error naming the execution, got %.300v", err)
	}
	_, err = SpiffMappings(context.Background(), small, "importDataMappings", map[string]json.RawMessage{"m": spiffDoublingJSON(9)}, nil)
	if err == nil || !strings.Contains(err.Error(), "max_bytes") || !strings.Contains(err.Error(), "importDataMappings") {
		t.Errorf("mapping: want a max_bytes error naming the field, got %.300v", err)
	}
	res, err := Run(Request{Kind: "deploy execution", Execution: inline(TypeSpiff, tmpl)})
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := res.Output["s9"].(string); len(s) != 512<<10 {
		t.Errorf("default limits: s9 has %d bytes", len(s))
	}
}

// spiffDoubling is a Spiff template whose s<n> is a string of 1 KiB
// doubled n times.
func spiffDoubling(n int) string {
	var b strings.Builder
	b.WriteString("s0: " + strings.Repeat("x", 1024) + "\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "s%d: (( s%d s%d ))\n", i, i-1, i-1)
	}
	return b.String()
}

// spiffDoublingJSON is spiffDoubling as JSON, as data mappings are given.
func spiffDoublingJSON(n int) json.RawMessage {
	m := map[string]string{"s0": strings.Repeat("x", 1024)}
	for i := 1; i <= n; i++ {
		m[fmt.Sprintf("s%d", i)] = fmt.Sprintf("(( s%d s%d ))", i-1, i-1)
	}
	data, _ := json.Marshal(m)
	return data
}
