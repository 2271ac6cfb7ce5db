package helm

import (
	"encoding/json"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
)

// PredictExports implements deployer.ExportPredictor: exports read from
// the chart's rendered objects are known at plan under the manifest
// deployer's rules (manifest.PredictFromObjects), objects without a
// namespace being the release namespace's, as Helm installs them. Exports
// of the values (jsonPath ".Values…") stay unknown.
func (d *Deployer) PredictExports(config json.RawMessage, rendered, server []deployer.PreviewObject) (deployer.PredictedExports, error) {
	cfg, err := ParseConfig(config)
	if err != nil {
		return deployer.PredictedExports{}, err
	}
	return manifest.PredictFromObjects(cfg.exports(), cfg.Namespace, rendered, server), nil
}

var _ deployer.ExportPredictor = (*Deployer)(nil)
