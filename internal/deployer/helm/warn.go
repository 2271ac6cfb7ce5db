package helm

import (
	"encoding/json"
	"reflect"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
)

var _ deployer.Warner = (*Deployer)(nil)

// ConfigWarnings implements deployer.Warner: every field the decoder does
// not declare (it decodes leniently, as Landscaper's does), and
// continuousReconcile, which is accepted, as Landscaper's deployer accepts
// it, but has no effect here.
func (d *Deployer) ConfigWarnings(config json.RawMessage) []string {
	shape := reflect.TypeOf(ProviderConfiguration{})
	return deployer.ConfigFieldWarnings(config, func(string) reflect.Type { return shape }, "the Helm deployer's configuration")
}

var _ deployer.TargetNamer = (*Deployer)(nil)

// TargetNames implements deployer.TargetNamer: the other targets the
// readiness checks, exports and deletion groups name.
func (d *Deployer) TargetNames(config json.RawMessage) []string {
	cfg, err := ParseConfig(config)
	if err != nil {
		return nil
	}
	exports := cfg.exports()
	return manifest.CollectTargetNames(cfg.ReadinessChecks, exports, cfg.DeletionGroups, cfg.DeletionGroupsDuringUpdate)
}
