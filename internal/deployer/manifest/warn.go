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
	return deployer.ConfigFieldWarnings(config, func(apiVersion string) reflect.Type {
		if strings.HasSuffix(apiVersion, "/v1alpha1") {
			return reflect.TypeOf(v1alpha1Configuration{})
		}
		return reflect.TypeOf(ProviderConfiguration{})
	}, "the manifest deployer's configuration")
}
