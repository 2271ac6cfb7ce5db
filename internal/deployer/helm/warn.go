package helm

import (
	"encoding/json"
	"reflect"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

var _ deployer.Warner = (*Deployer)(nil)

// ConfigWarnings implements deployer.Warner: every field the decoder does
// not declare (it decodes leniently, as Landscaper's does), and
// continuousReconcile, which is accepted, as Landscaper's deployer accepts
// it, but has no effect here.
func (d *Deployer) ConfigWarnings(config json.RawMessage) []string {
	out := deployer.UnknownFieldWarnings(config, reflect.TypeOf(ProviderConfiguration{}), "the Helm deployer's configuration")
	return append(out, deployer.ContinuousReconcileWarnings(config)...)
}
