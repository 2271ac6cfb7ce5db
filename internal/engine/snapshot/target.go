package snapshot

import (
	"encoding/json"
	"fmt"
	"sort"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

// Select resolves a deploy item's target selector: `{import: x}` a single
// target import, `{import: x, index: i}` an element of a targetList import,
// `{import: x, key: k}` an entry of a targetMap import. A nil selector
// selects no target. Errors name the import, never a target's content.
func (t TargetImports) Select(sel *api.TargetSelector) (*api.Target, error) {
	if sel == nil {
		return nil, nil
	}
	name := sel.Import
	if name == "" {
		name = sel.Name
	}
	switch {
	case name == "":
		return nil, fmt.Errorf("target selector names no import")
	case sel.Index != nil:
		list, ok := t.Lists[name]
		if !ok {
			return nil, fmt.Errorf("no targetList import %q", name)
		}
		if *sel.Index < 0 || *sel.Index >= len(list) {
			return nil, fmt.Errorf("index %d out of range of targetList import %q (%d targets)", *sel.Index, name, len(list))
		}
		tg := list[*sel.Index]
		return &tg, nil
	case sel.Key != "":
		m, ok := t.Maps[name]
		if !ok {
			return nil, fmt.Errorf("no targetMap import %q", name)
		}
		tg, ok := m[sel.Key]
		if !ok {
			return nil, fmt.Errorf("no key %q in targetMap import %q", sel.Key, name)
		}
		return &tg, nil
	default:
		tg, ok := t.Single[name]
		if !ok {
			return nil, fmt.Errorf("no target import %q", name)
		}
		return &tg, nil
	}
}

// ByName returns the target imports by their Target's metadata.name, as
// deployer.Item.Targets: single imports and the elements of list and map
// imports alike. A name that two different targets share is ambiguous and
// left out; ambiguous lists those names, sorted.
func (t TargetImports) ByName() (byName map[string]*api.Target, ambiguous []string) {
	byName = map[string]*api.Target{}
	clash := map[string]bool{}
	add := func(tg api.Target) {
		name := tg.Metadata.Name
		if name == "" || clash[name] {
			return
		}
		if prev, ok := byName[name]; ok {
			if Hash(*prev) != Hash(tg) {
				delete(byName, name)
				clash[name] = true
			}
			return
		}
		copied := tg
		byName[name] = &copied
	}
	for _, tg := range t.Single {
		add(tg)
	}
	for _, list := range t.Lists {
		for _, tg := range list {
			add(tg)
		}
	}
	for _, m := range t.Maps {
		for _, tg := range m {
			add(tg)
		}
	}
	for name := range clash {
		ambiguous = append(ambiguous, name)
	}
	sort.Strings(ambiguous)
	return byName, ambiguous
}

// Hash is fingerprint.Value without write-only forms: for data that
// holds none (targets, which the snapshot keeps as they are) or is
// compared but not stored. A hash of configuration data that is stored
// goes through package fingerprint with the installation's forms.
func Hash(v any) string { return fingerprint.Value(v, nil) }

// HashEncoded is fingerprint.Encoded without write-only forms.
func HashEncoded(raw json.RawMessage) string { return fingerprint.Encoded(raw, nil) }

// SameDestination reports whether two resolved targets deploy to the same
// place. For a kubernetes-cluster target that is the API server and the
// default namespace of the kubeconfig's current context, so a rotated
// token or another user of the same cluster is the same destination and
// only the credentials recorded for the next call change. Other targets
// (and kubeconfigs that cannot be read) are the same when their type and
// config are equal. A nil target is the same only as a nil target.
func SameDestination(a, b *api.Target) bool {
	if a == nil || b == nil {
		return a == b
	}
	return destination(a) == destination(b)
}

// destination reads the kubeconfig only as data (no files, no exec, no
// client): blueprints may produce targets.
func destination(t *api.Target) string {
	if t.Spec.Type == api.KubernetesClusterTargetType {
		var cfg api.KubernetesClusterConfig
		if json.Unmarshal(t.Spec.Config, &cfg) == nil && cfg.Kubeconfig != "" {
			if raw, err := clientcmd.Load([]byte(cfg.Kubeconfig)); err == nil {
				if kctx, ok := raw.Contexts[raw.CurrentContext]; ok {
					if cluster, ok := raw.Clusters[kctx.Cluster]; ok && cluster.Server != "" {
						ns := kctx.Namespace
						if ns == "" {
							ns = "default"
						}
						return "kubernetes-cluster " + cluster.Server + " " + ns
					}
				}
			}
		}
	}
	return Hash(t.Spec)
}
