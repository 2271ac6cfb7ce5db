package helm

import (
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// StatusAPIVersion is the apiVersion of ProviderStatus.
const StatusAPIVersion = "helm.deployer.landscaper.gardener.cloud/v1alpha1"

// ProviderStatus is what Apply records: Landscaper's managedResources plus
// the release (real releases only) and a hash of what was deployed.
type ProviderStatus struct {
	APIVersion       string                     `json:"apiVersion"`
	Kind             string                     `json:"kind"`
	ManagedResources []manifest.ManagedResource `json:"managedResources"`
	Release          *ReleaseRef                `json:"release,omitempty"`
	// Hash covers chart content, values and options of the last
	// successful deployment; an unchanged hash lets Apply skip the upgrade.
	Hash string `json:"hash,omitempty"`
}

// ReleaseRef names a Helm release and its deployed revision.
type ReleaseRef struct {
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
	Revision  int    `json:"revision,omitempty"`
	// FirstDeployed is when the release was first installed (RFC 3339,
	// nanoseconds; "" for statuses written before it was recorded). Helm
	// copies it into every later revision, whoever upgrades the release,
	// while a release installed again — by hand, or after an uninstall —
	// gets a new one: it tells this item's release from another of the
	// same name when the release has no labels (releaseOwner.claim).
	FirstDeployed string `json:"firstDeployed,omitempty"`
}

func decodeStatus(raw json.RawMessage) (ProviderStatus, error) {
	var s ProviderStatus
	if len(raw) == 0 || string(raw) == "null" {
		return s, nil
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		return s, fmt.Errorf("previous provider status cannot be read: %w", err)
	}
	return s, nil
}

func (s ProviderStatus) encode() json.RawMessage {
	s.APIVersion, s.Kind = StatusAPIVersion, "ProviderStatus"
	// Reuse the manifest deployer's stable ordering.
	var m manifest.ProviderStatus
	_ = json.Unmarshal(manifest.EncodeStatus(s.ManagedResources), &m)
	s.ManagedResources = m.ManagedResources
	b, _ := json.Marshal(s)
	return b
}

// result is the deployer.Result of a call that leaves s in the cluster.
func (s ProviderStatus) result(exports map[string]any) deployer.Result {
	return deployer.Result{ProviderStatus: s.encode(), Objects: manifest.Objects(s.ManagedResources), Exports: exports}
}

// deploymentHash identifies a deployment: the same chart content, values
// and options give the same hash. It is kept in the provider status, so
// it is the fingerprint without the write-only forms wo: values holding
// one hash the same whatever the value, and applyRelease does not take
// an equal hash for the same deployment then.
func deploymentHash(chartDigest string, cfg *ProviderConfiguration, wo fingerprint.Forms) string {
	return fingerprint.Value(struct {
		Chart     string
		Values    map[string]any
		Options   *DeploymentConfig
		CreateNS  bool
		Namespace string
	}{chartDigest, cfg.values(), cfg.HelmDeploymentConfig, cfg.CreateNamespace, cfg.Namespace}, wo)
}
