package shared

import (
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

// Restrict takes out of the root target imports of snap, when an import
// filled it from a cluster, every Target with a provider kubeconfig
// reference that the import did not make (Own). The engine hands such a
// Target to a deployer only when the root imports it
// (execution.CheckTarget), and the pool allows a reference for the whole
// provider process: a record planted in a cluster that names another
// installation's reference must not make it one of this root's. A list or
// map import holding one goes as a whole (its indices stay meaningful).
// A snapshot an apply wrote is left as it is.
func (p Provenance) Restrict(snap *engine.Snapshot) {
	if p.applied || snap.Empty() {
		return
	}
	foreign := func(ts ...api.Target) bool {
		for _, t := range ts {
			if t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation] != "" && !p.Own(t) {
				return true
			}
		}
		return false
	}
	in := &snap.Root.Targets
	for name, t := range in.Single {
		if foreign(t) {
			delete(in.Single, name)
		}
	}
	for name, list := range in.Lists {
		if foreign(list...) {
			delete(in.Lists, name)
		}
	}
	for name, m := range in.Maps {
		for _, t := range m {
			if foreign(t) {
				delete(in.Maps, name)
				break
			}
		}
	}
}
