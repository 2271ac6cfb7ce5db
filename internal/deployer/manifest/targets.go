package manifest

import (
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Landscaper v0.110's "additional targets": an export, a custom readiness
// check or a custom deletion group may name another Target (targetName),
// on whose cluster it reads, waits or deletes. Landscaper looks the name
// up among the Targets of the deploy item's namespace; here it is one of
// the installation's target imports (deployer.Item.Targets), which the
// engine checks at plan. The work on that cluster follows the ownership
// rules of the item's own (WithOwner).

// WithTargets lets the session reach the other targets of item by name,
// with clients from pool.
func (s *Session) WithTargets(pool *target.Pool, item deployer.Item) *Session {
	s.other = func(name string) (*Session, error) {
		t := item.Targets[name]
		if t == nil {
			return nil, failure.Terminalf("TargetNotFound", "targetName %q is none of the installation's target imports", name)
		}
		c, err := pool.Clients(t)
		if err != nil {
			return nil, fmt.Errorf("target %q: %w", name, err)
		}
		return NewSession(c, s.itemID).WithOwner(item), nil
	}
	return s
}

// on is the session on the cluster of the target named name; s itself
// for nil.
func (s *Session) on(name *string) (*Session, error) {
	if name == nil {
		return s, nil
	}
	if s.other == nil {
		return nil, failure.Terminalf("TargetNotFound", "targetName %q: no other targets are known here", *name)
	}
	return s.other(*name)
}

// validTargetName checks a targetName as given: set, it names a target.
func validTargetName(field string, name *string) error {
	if name != nil && *name == "" {
		return fmt.Errorf("%s: targetName is empty", field)
	}
	return nil
}

// TargetNames lists the other targets cfg names, each once, in order.
func (c *ProviderConfiguration) TargetNames() []string {
	var exports []Export
	if c.Exports != nil {
		exports = c.Exports.Exports
	}
	return CollectTargetNames(c.ReadinessChecks, exports, c.DeletionGroups, c.DeletionGroupsDuringUpdate)
}

// CollectTargetNames lists the targetNames of readiness checks, exports
// and deletion groups, each once, in order.
func CollectTargetNames(rc ReadinessCheckConfig, exports []Export, groups ...[]DeletionGroup) []string {
	var out []string
	seen := map[string]bool{}
	add := func(n *string) {
		if n != nil && !seen[*n] {
			seen[*n] = true
			out = append(out, *n)
		}
	}
	for _, cc := range rc.Custom {
		add(cc.TargetName)
	}
	for _, e := range exports {
		add(e.TargetName)
	}
	for _, gs := range groups {
		for _, g := range gs {
			if g.CustomResourceGroup != nil {
				add(g.CustomResourceGroup.TargetName)
			}
		}
	}
	return out
}

var _ deployer.TargetNamer = (*Deployer)(nil)

// TargetNames implements deployer.TargetNamer.
func (d *Deployer) TargetNames(config json.RawMessage) []string {
	cfg, err := ParseConfig(config)
	if err != nil {
		return nil
	}
	return cfg.TargetNames()
}
