package api

import "encoding/json"

// TargetAPIVersion and TargetKind identify a Target object, exactly as
// Landscaper writes it, so blueprints that read
// `.imports.cluster.spec.config.kubeconfig` work unchanged.
const (
	TargetAPIVersion = "landscaper.gardener.cloud/v1alpha1"
	TargetKind       = "Target"

	// KubernetesClusterTargetType is the target type every Kubernetes deployer accepts.
	KubernetesClusterTargetType = "landscaper.gardener.cloud/kubernetes-cluster"
)

// Target is a Landscaper Target object. Its Spec.Config holds credentials:
// never log a Target or put it into an error message.
type Target struct {
	APIVersion string     `json:"apiVersion"`
	Kind       string     `json:"kind"`
	Metadata   ObjectMeta `json:"metadata"`
	Spec       TargetSpec `json:"spec"`
}

// ObjectMeta is the subset of Kubernetes object metadata a Target carries.
type ObjectMeta struct {
	Name        string            `json:"name"`
	Namespace   string            `json:"namespace,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// TargetSpec is the type and configuration of a target. For
// KubernetesClusterTargetType the config is `{"kubeconfig": "<yaml>"}`.
type TargetSpec struct {
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config,omitempty"`
}

// NewTarget returns a Target object with apiVersion and kind set.
func NewTarget(name, namespace, targetType string, config json.RawMessage) Target {
	return Target{
		APIVersion: TargetAPIVersion,
		Kind:       TargetKind,
		Metadata:   ObjectMeta{Name: name, Namespace: namespace},
		Spec:       TargetSpec{Type: targetType, Config: config},
	}
}

// KubernetesClusterConfig is the config of a kubernetes-cluster target.
type KubernetesClusterConfig struct {
	Kubeconfig string `json:"kubeconfig"`
}

// KubeconfigFromProviderAnnotation marks a kubernetes-cluster Target whose
// kubeconfig is not in the Target (nor in Terraform state, plan or the
// engine's snapshot): the provider's `target_kubeconfigs` holds it under
// the Target's name. The annotation's value is a random reference the
// landscaper_target resource chose, so a blueprint cannot make up a Target
// that borrows a kubeconfig the user did not give it.
const KubeconfigFromProviderAnnotation = "landscaper-terraform.io/kubeconfig-from-provider"
