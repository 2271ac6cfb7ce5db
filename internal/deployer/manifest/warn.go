package manifest

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

var _ deployer.Warner = (*Deployer)(nil)

// ConfigWarnings implements deployer.Warner: every field the decoder does
// not declare (it decodes leniently, as Landscaper's does), and
// continuousReconcile, which is accepted, as Landscaper's deployer accepts
// it, but has no effect here.
func (d *Deployer) ConfigWarnings(config json.RawMessage) []string {
	shape := reflect.TypeOf(ProviderConfiguration{})
	if strings.HasSuffix(peekAPIVersion(config), "/v1alpha1") {
		shape = reflect.TypeOf(v1alpha1Configuration{})
	}
	out := deployer.UnknownFieldWarnings(config, shape, "the manifest deployer's configuration")
	return append(out, deployer.ContinuousReconcileWarnings(config)...)
}
