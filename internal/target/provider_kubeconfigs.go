package target

import (
	"crypto/sha256"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Kubeconfigs given in the provider block (`target_kubeconfigs`) never
// travel inside a Target: a landscaper_target with kubeconfig_from_provider
// holds only its name and a reference (api.KubeconfigFromProviderAnnotation),
// and the pool puts the kubeconfig in when it builds the clients. That keeps
// them out of Terraform state and plans and out of the engine's snapshot,
// which is persisted in private state.
//
// A reference is honoured only after AllowProviderKubeconfig was called
// with it: the provider does that for the targets of the user's own
// configuration (and of the root installation a snapshot records), so a
// Target that a blueprint builds cannot borrow a kubeconfig by name.
// The allowance is the whole provider process's, though, and every
// installation's inventory keeps its references: the engine therefore
// hands a deployer such a Target only in the job of the installation whose
// root imports it (execution.CheckTarget); this check stays behind it.

// WithProviderKubeconfigs gives the pool the provider block's kubeconfigs
// by target name. They are the user's own, hence trusted (Trust).
func WithProviderKubeconfigs(byName map[string]string) Option {
	return func(p *Pool) {
		p.fromProvider = make(map[string]string, len(byName))
		for name, kubeconfig := range byName {
			p.fromProvider[name] = kubeconfig
			p.trusted[sha256.Sum256([]byte(kubeconfig))] = true
		}
	}
}

// AllowProviderKubeconfig lets t, a Target of the user's configuration,
// use the provider's kubeconfig of its name. Targets without the
// annotation are ignored.
func (p *Pool) AllowProviderKubeconfig(t api.Target) {
	ref, ok := providerReference(t)
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.allowedRefs == nil {
		p.allowedRefs = map[providerRef]bool{}
	}
	p.allowedRefs[ref] = true
}

// FromProvider says whether t takes its kubeconfig from the provider block
// with a reference AllowProviderKubeconfig allowed.
func (p *Pool) FromProvider(t api.Target) bool {
	ref, ok := providerReference(t)
	if !ok {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.allowedRefs[ref]
}

type providerRef struct{ name, reference string }

func providerReference(t api.Target) (providerRef, bool) {
	ref := t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation]
	if ref == "" || t.Spec.Type != api.KubernetesClusterTargetType {
		return providerRef{}, false
	}
	return providerRef{name: t.Metadata.Name, reference: ref}, true
}

// providerKubeconfig returns the provider's kubeconfig for t, or false when
// t does not refer to one. Errors name the target, never a kubeconfig.
func (p *Pool) providerKubeconfig(t *api.Target) (string, bool, error) {
	ref, ok := providerReference(*t)
	if !ok {
		return "", false, nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.allowedRefs[ref] {
		return "", true, failure.Terminalf("UntrustedTarget",
			"target %q refers to a kubeconfig of the provider block, but it is not a target of this configuration "+
				"(a blueprint built or changed it)", t.Metadata.Name)
	}
	kubeconfig, ok := p.fromProvider[ref.name]
	if !ok {
		return "", true, failure.Terminalf("MissingKubeconfig",
			"target %q takes its kubeconfig from the provider block, but target_kubeconfigs has no entry %q", t.Metadata.Name, ref.name)
	}
	return kubeconfig, true, nil
}

// ProviderKubeconfig returns the provider block's kubeconfig of t, for a
// deployer that hands t to a process of its own (the external deployer
// writes it into a Secret the Target references); false when t carries
// its own kubeconfig. The same rules as for the pool's own clients hold:
// only targets of the user's configuration may refer to one.
func (p *Pool) ProviderKubeconfig(t *api.Target) (string, bool, error) {
	return p.providerKubeconfig(t)
}

// ProviderKubeconfigNames are the names of the provider block's
// kubeconfigs, sorted: the clusters the provider reaches without a
// configuration (an import looks for installations there).
func (p *Pool) ProviderKubeconfigNames() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	names := make([]string, 0, len(p.fromProvider))
	for name := range p.fromProvider {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
