package helm

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

var _ deployer.Warner = (*Deployer)(nil)

// ConfigWarnings implements deployer.Warner: continuousReconcile is
// accepted, as Landscaper's deployer accepts it, but has no effect here.
func (d *Deployer) ConfigWarnings(config json.RawMessage) []string {
	var cfg struct {
		ContinuousReconcile json.RawMessage `json:"continuousReconcile"`
	}
	if json.Unmarshal(config, &cfg) != nil || !deployer.HasValue(cfg.ContinuousReconcile) {
		return nil
	}
	return []string{deployer.ContinuousReconcileWarning}
}
