package target

import (
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

func providerTarget(name, reference string) api.Target {
	t := api.NewTarget(name, "", api.KubernetesClusterTargetType, nil)
	t.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: reference}
	return t
}

// TestProviderKubeconfig_OnlyAllowedReferences: the provider's kubeconfig
// is used for a target whose reference the provider allowed, under its
// name; a target with another reference (one a blueprint made up) or a
// name the provider block lacks fails, naming the target, never the
// kubeconfig.
func TestProviderKubeconfig_OnlyAllowedReferences(t *testing.T) {
	p := NewPool(WithProviderKubeconfigs(map[string]string{"cluster": kubeconfig}))
	user := providerTarget("cluster", "r-1")

	if _, err := p.Clients(&user); err == nil || !strings.Contains(err.Error(), "not a target of this configuration") {
		t.Fatalf("Clients before the reference is allowed = %v, want it refused", err)
	}
	p.AllowProviderKubeconfig(user)
	c, err := p.Clients(&user)
	if err != nil {
		t.Fatal(err)
	}
	if c.Config.Host != "https://127.0.0.1:6443" || c.Namespace != "team-a" {
		t.Errorf("clients for %s, namespace %s; want the provider's kubeconfig", c.Config.Host, c.Namespace)
	}
	if !p.FromProvider(user) {
		t.Error("FromProvider(allowed target) = false")
	}

	forged := providerTarget("cluster", "guessed")
	if _, err := p.Clients(&forged); err == nil || !strings.Contains(err.Error(), `target "cluster"`) {
		t.Errorf("Clients(target with another reference) = %v, want it refused naming the target", err)
	}
	if p.FromProvider(forged) {
		t.Error("FromProvider(forged target) = true")
	}

	other := providerTarget("other", "r-2")
	p.AllowProviderKubeconfig(other)
	_, err = p.Clients(&other)
	if err == nil || !strings.Contains(err.Error(), `target_kubeconfigs has no entry "other"`) {
		t.Errorf("Clients(target the provider block lacks) = %v, want the missing entry named", err)
	}
	if err != nil && strings.Contains(err.Error(), "very-secret-token-value") {
		t.Error("the error quotes a kubeconfig")
	}
}

// TestProviderKubeconfig_Trusted: the provider block's kubeconfigs are the
// user's own, so they may use exec like a kubeconfig in the configuration.
func TestProviderKubeconfig_Trusted(t *testing.T) {
	p := NewPool(WithProviderKubeconfigs(map[string]string{"cluster": kubeconfig}))
	if !p.Trusted(kubeconfig) {
		t.Error("a provider-block kubeconfig is not trusted")
	}
}

// TestProviderKubeconfig_NotFoundByInlineConfig: clients found by an inline
// target's config are never handed to a target that refers to the
// provider's kubeconfigs with the same config, which must pass its own
// check.
func TestProviderKubeconfig_NotFoundByInlineConfig(t *testing.T) {
	p := NewPool(WithProviderKubeconfigs(map[string]string{"cluster": kubeconfig}))
	inline := targetWith(t, kubeconfig)
	if _, err := p.Clients(inline); err != nil {
		t.Fatal(err)
	}
	forged := providerTarget("cluster", "guessed")
	forged.Spec.Config = inline.Spec.Config
	if _, err := p.Clients(&forged); err == nil || !strings.Contains(err.Error(), "not a target of this configuration") {
		t.Fatalf("Clients(forged reference with an inline target's config) = %v, want it refused", err)
	}
}
