package blueprint

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// Replayable says whether every execution of the blueprint (import,
// subinstallation, deploy and export executions) renders the same output
// from the same inputs (template.Replayable): then a plan whose inputs
// are those of the last apply may reuse what that apply rendered.
func (b *Blueprint) Replayable() bool {
	lists := []struct {
		kind  string
		execs []template.Execution
	}{
		{"import execution", b.ImportExecutions}, {"subinstallation execution", b.SubinstallationExecutions},
		{"deploy execution", b.DeployExecutions}, {"export execution", b.ExportExecutions},
	}
	for _, l := range lists {
		for _, ex := range l.execs {
			if !template.Replayable(template.Request{Kind: l.kind, Execution: ex, Files: b.Files, Limits: b.limits}) {
				return false
			}
		}
	}
	return true
}

// MappingsReplayable says whether an installation's importDataMappings
// or exportDataMappings evaluate the same from the same values
// (template.MappingsReplayable).
func MappingsReplayable(mappings map[string]json.RawMessage) bool {
	return template.MappingsReplayable(mappings)
}
