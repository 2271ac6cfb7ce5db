package manifest

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

var _ deployer.Warner = (*Deployer)(nil)

// ConfigWarnings implements deployer.Warner: continuousReconcile is
// accepted, as Landscaper's deployer accepts it, but has no effect here.
func (d *Deployer) ConfigWarnings(config json.RawMessage) []string {
	return deployer.ContinuousReconcileWarnings(config)
}
