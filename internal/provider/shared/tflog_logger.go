package shared

import (
	"context"

	"github.com/hashicorp/terraform-plugin-log/tflog"
)

// tflogLogger shows the engine's progress (phase transitions, deploy item
// starts and finishes) with TF_LOG=INFO. The engine never logs configs,
// imports or targets, so nothing secret reaches the log.
type tflogLogger struct{ ctx context.Context }

func (l tflogLogger) Info(msg string, kv ...any) {
	ctx := l.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	fields := make(map[string]any, len(kv)/2)
	for i := 0; i+1 < len(kv); i += 2 {
		if k, ok := kv[i].(string); ok {
			fields[k] = kv[i+1]
		}
	}
	tflog.Info(ctx, "landscaper: "+msg, fields)
}
