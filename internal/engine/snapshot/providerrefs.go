package snapshot

import "github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"

// ProviderRefs are the Targets of a job that may take a kubeconfig of the
// provider block (api.KubeconfigFromProviderAnnotation): those of the
// root installation's target imports, by name, reference and type.
//
// The reference is random, but not secret from everyone: an
// installation's inventory keeps it in every cluster it deploys to, and
// the provider's pool allows it for the whole process. A blueprint of
// another installation of the same configuration that learned it could
// otherwise build a Target with it and reach that installation's cluster
// (issue 32). Within a job, the root's imports are the configuration's
// own Targets, so a reference counts only in the job of the installation
// that imports it; a subinstallation that imports the root's Target
// passes it on unchanged and still matches.
type ProviderRefs struct {
	refs map[providerRef]bool
}

type providerRef struct{ name, reference, typ string }

func refOf(t api.Target) (providerRef, bool) {
	ref := t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation]
	if ref == "" {
		return providerRef{}, false
	}
	return providerRef{name: t.Metadata.Name, reference: ref, typ: t.Spec.Type}, true
}

// RootProviderRefs are the ProviderRefs of a root installation's target
// imports; give the root's imports of this job and those the previous job
// recorded (its items are deleted from them).
func RootProviderRefs(imports ...TargetImports) ProviderRefs {
	r := ProviderRefs{refs: map[providerRef]bool{}}
	add := func(t api.Target) {
		if ref, ok := refOf(t); ok {
			r.refs[ref] = true
		}
	}
	for _, in := range imports {
		for _, t := range in.Single {
			add(t)
		}
		for _, list := range in.Lists {
			for _, t := range list {
				add(t)
			}
		}
		for _, m := range in.Maps {
			for _, t := range m {
				add(t)
			}
		}
	}
	return r
}

// Allows reports whether t may be handed to a deployer: it refers to no
// provider kubeconfig, or it is one of the root's target imports. A nil
// target refers to nothing.
func (r ProviderRefs) Allows(t *api.Target) bool {
	if t == nil {
		return true
	}
	ref, ok := refOf(*t)
	return !ok || r.refs[ref]
}
