package shared

import (
	"strings"
	"testing"
)

// TestMaskable proves write-only data the mask cannot hide is refused,
// naming where it is: numbers, bools and strings under minWriteOnlyLen.
func TestMaskable(t *testing.T) {
	for name, c := range map[string]struct {
		v    any
		want string
	}{
		"strings":      {map[string]any{"token": "s3cr3t", "list": []any{"abcd", nil}}, ""},
		"number":       {map[string]any{"db": map[string]any{"password": "s3cr3t", "port": 5432.0}}, "db.port: only strings can be write-only (a number"},
		"bool":         {map[string]any{"flags": []any{"abcd", true}}, "flags[1]: only strings can be write-only (a bool"},
		"short string": {map[string]any{"pin": "123"}, "pin: a write-only string must have at least 4 characters"},
	} {
		t.Run(name, func(t *testing.T) {
			err := Maskable(c.v, "")
			if c.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("want %q, got %v", c.want, err)
			}
		})
	}
}
