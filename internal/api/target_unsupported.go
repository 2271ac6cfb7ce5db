package api

import (
	"encoding/json"
	"fmt"
)

// Landscaper (after v0.98) also builds kubernetes-cluster Targets without
// a kubeconfig: with oidcConfig, its controller mints a token of a service
// account of its own cluster for an audience and the target cluster
// trusts that cluster as an OIDC issuer; with selfConfig, the token is for
// its own cluster. This provider refuses both (UnsupportedClusterConfig).

// UnsupportedClusterConfig says why a kubernetes-cluster Target's config
// names a way to reach the cluster that this provider does not offer
// (oidcConfig, selfConfig) and what to do instead; nil for any other
// config or target type. It never quotes the config.
func UnsupportedClusterConfig(t Target) error {
	if t.Spec.Type != KubernetesClusterTargetType {
		return nil
	}
	var cfg struct {
		Kubeconfig json.RawMessage `json:"kubeconfig"`
		OIDCConfig json.RawMessage `json:"oidcConfig"`
		SelfConfig json.RawMessage `json:"selfConfig"`
	}
	if json.Unmarshal(t.Spec.Config, &cfg) != nil {
		return nil // not an object: the target's reader reports that
	}
	set := func(raw json.RawMessage) bool { return len(raw) > 0 && string(raw) != "null" }
	if set(cfg.Kubeconfig) && string(cfg.Kubeconfig) != `""` {
		return nil // a kubeconfig wins, as in Landscaper
	}
	const why = "the provider runs inside terraform, not as a controller on a cluster of its own, so it has no " +
		"service accounts to mint tokens for, and tokens minted on the host cluster at every plan, apply, refresh " +
		"and destroy would let any blueprint that exports such a Target act as the host cluster's service accounts"
	switch {
	case set(cfg.OIDCConfig):
		return fmt.Errorf("target %q: config.oidcConfig is not supported: %s. Give the Target a kubeconfig "+
			"instead, e.g. landscaper_target with kubeconfig_from_provider and, in the provider's target_kubeconfigs, "+
			"a kubeconfig whose user gets its OIDC token from an exec plugin (kubectl oidc-login) or a token you manage", t.Metadata.Name, why)
	case set(cfg.SelfConfig):
		return fmt.Errorf("target %q: config.selfConfig is not supported: %s. Give the Target a kubeconfig "+
			"instead, e.g. landscaper_target with kubeconfig_from_provider and, in the provider's target_kubeconfigs, "+
			"the host cluster's kubeconfig with a service account token you manage (kubectl create token)", t.Metadata.Name, why)
	}
	return nil
}
