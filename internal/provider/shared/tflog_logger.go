package shared

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tflogLogger shows the engine's progress (phase transitions, deploy item
// starts and finishes) with TF_LOG=INFO. The engine never logs configs,
// imports or targets; the message and every field still pass the masking
// exit (exit.go), as a diagnostic does, since a field may be an error
// that quotes a value.
type tflogLogger struct {
	ctx context.Context
	sec *Security
}

func (l tflogLogger) Info(msg string, kv ...any) {
	ctx := l.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	fields := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		if k, ok := kv[i].(string); ok {
			fields[k] = l.field(kv[i+1])
		}
	}
	tflog.Info(ctx, "landscaper: "+l.sec.Scrub(msg), fields)
}

// field is v as the log shows it: numbers and booleans as they are, the
// rest as its text, masked.
func (l tflogLogger) field(v any) any {
	switch x := v.(type) {
	case nil, bool, int, int64, float64:
		return x
	case string:
		return l.sec.Scrub(x)
	}
	return l.sec.Scrub(fmt.Sprint(v))
}

// Warn logs a warning of the provider (a registry client's note) through
// the masking exit.
func (s *Security) Warn(ctx context.Context, msg string) {
	tflog.Warn(ctx, s.Scrub(msg))
}
