package instance

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// An import fills the state from the installation's inventory: after every
// job the inventory keeps, beside the deploy items, the job's snapshot
// without credentials and what the caller adds (Runner.Keep: the
// provider's attributes), and Imported puts them back together with the
// items the clusters record.
//
// Credentials are never copied into a cluster: a target that holds a
// configuration of its own (a kubeconfig, any spec.config) is left out of
// what is kept, wherever it appears in the snapshot. Targets that only
// refer to a kubeconfig of the provider block (kubeconfig_from_provider)
// hold none and are kept. A deploy item's configuration and provider
// status are kept by its own cluster's parent already.

// keptVersion is the version of what the inventory keeps.
const keptVersion = 1

// kept is what the inventory keeps of an instance after a job.
type kept struct {
	Version  int             `json:"version"`
	Snapshot json.RawMessage `json:"snapshot"`
	// Withheld names what of the root's outcome was left out because it
	// holds credentials: "targetExports".
	Withheld []string        `json:"withheld,omitempty"`
	Resource json.RawMessage `json:"resource,omitempty"`
}

// keep is what rec keeps after a job that left s: nothing when the caller
// keeps nothing (Runner.Keep unset) or s is empty.
func (r Runner) keep(rec *inventory.Recorder, s *engine.Snapshot) error {
	if r.Keep == nil || s.Empty() {
		return nil
	}
	stripped, withheld := withoutCredentials(s, r.Mask)
	b, err := snapshot.Marshal(stripped)
	if err != nil {
		return fmt.Errorf("installation inventory: encoding what it keeps for an import: %w", err)
	}
	raw, err := json.Marshal(kept{Version: keptVersion, Snapshot: b, Withheld: withheld, Resource: r.Keep(s)})
	if err != nil {
		return fmt.Errorf("installation inventory: encoding what it keeps for an import: %w", err)
	}
	rec.Keep(raw)
	return nil
}

// holdsCredentials says whether t carries a configuration of its own.
func holdsCredentials(t api.Target) bool { return len(t.Spec.Config) > 0 }

// withoutCredentials is a copy of s, masked by mask when set, without any
// target that holds credentials and without the deploy items'
// configurations (their parents record them) except masked ones: the
// parents record those unmasked, and an import must not put write-only
// values into the state. withheld names what of the root's outcome went.
func withoutCredentials(s *engine.Snapshot, mask func(*engine.Snapshot)) (*engine.Snapshot, []string) {
	c := s.Clone()
	if mask != nil {
		mask(c)
	}
	var withheld []string
	for _, in := range c.Installations() {
		in.Targets = strippedImports(in.Targets)
		if len(in.TargetExports) > 0 {
			exports := map[string]api.Target{}
			for name, t := range in.TargetExports {
				if holdsCredentials(t) {
					if in == c.Root && len(withheld) == 0 {
						withheld = append(withheld, "targetExports")
					}
					continue
				}
				exports[name] = t
			}
			in.TargetExports = exports
		}
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			if !it.Masked() {
				it.Config = nil
			}
			if it.AppliedTarget != nil && holdsCredentials(*it.AppliedTarget) {
				it.AppliedTarget = nil
			}
		}
	}
	return c, withheld
}

func strippedImports(t snapshot.TargetImports) snapshot.TargetImports {
	var out snapshot.TargetImports
	for name, tg := range t.Single {
		if !holdsCredentials(tg) {
			if out.Single == nil {
				out.Single = map[string]api.Target{}
			}
			out.Single[name] = tg
		}
	}
	for name, list := range t.Lists {
		if !anyHoldsCredentials(list...) {
			if out.Lists == nil {
				out.Lists = map[string][]api.Target{}
			}
			out.Lists[name] = list
		}
	}
	for name, m := range t.Maps {
		ts := make([]api.Target, 0, len(m))
		for _, tg := range m {
			ts = append(ts, tg)
		}
		if !anyHoldsCredentials(ts...) {
			if out.Maps == nil {
				out.Maps = map[string]map[string]api.Target{}
			}
			out.Maps[name] = m
		}
	}
	return out
}

func anyHoldsCredentials(ts ...api.Target) bool {
	for _, t := range ts {
		if holdsCredentials(t) {
			return true
		}
	}
	return false
}

// Imported is what an import finds of an installation in its inventory.
type Imported struct {
	// Snapshot is what the installation last left, with each deploy
	// item's configuration, provider status and cluster as the parents
	// record them; nil when no cluster searched records the installation.
	Snapshot *engine.Snapshot
	// Kept says the inventory kept the job's snapshot: without it
	// (recorded by an earlier provider version) Snapshot is the rebuild of
	// a lost state (every item Failed), which the next apply settles.
	Kept bool
	// Resource is what the caller kept (Runner.Keep) with that snapshot.
	Resource json.RawMessage
	// Withheld: kept.Withheld.
	Withheld []string
	// Missing are deployed items the kept snapshot lists that no cluster
	// searched records: deployed where the import did not look.
	Missing []string
	// FoundIn names the targets searched whose clusters record the
	// installation's deploy items.
	FoundIn []string
}

// Imported reads what the inventory of root installation root records
// and keeps in the clusters of targets (at import, those the provider
// reaches without a configuration) and puts the state back together
// from the newest job's kept snapshot (job IDs are UUIDv7).
func (r Runner) Imported(ctx context.Context, root string, targets []api.Target) (Imported, error) {
	found, err := inventory.Find(ctx, r.Pool, root, targets)
	if err != nil || found.Snapshot == nil {
		return Imported{}, err
	}
	return assemble(found, root), nil
}

// assemble puts what Find found of root installation root together.
// Everything in it comes from the clusters, unsigned (an import has no
// key): every deploy item of the result is marked rebuilt, so that no
// deployer grants it what only Terraform state may grant
// (deployer.Item.Rebuilt); the kept snapshot is decoded by
// inventory.DecodeClaimed and the recorded statuses put in by
// inventory.Claim.
func assemble(found inventory.Found, root string) Imported {
	var newest *kept
	var newestSnap *engine.Snapshot
	for _, raw := range found.Kept {
		var k kept
		if json.Unmarshal(raw, &k) != nil || k.Version != keptVersion {
			continue
		}
		s, err := inventory.DecodeClaimed(k.Snapshot)
		if err != nil || s.Empty() || s.Root.Path != root {
			continue
		}
		// keep never writes a target that holds credentials: one found
		// here was planted (a kubeconfig with exec would run its program at
		// the next refresh), and goes as keep would have left it out.
		s, _ = withoutCredentials(s, nil)
		if newest == nil || s.JobID() > newestSnap.JobID() {
			newest, newestSnap = &k, s
		}
	}
	foundIn := foundIn(found.Snapshot)
	if newest == nil {
		return Imported{Snapshot: found.Snapshot, FoundIn: foundIn}
	}
	out := Imported{Snapshot: newestSnap, Kept: true, Resource: newest.Resource, Withheld: newest.Withheld, FoundIn: foundIn}
	recorded := map[string]*snapshot.DeployItem{}
	for _, it := range found.Snapshot.DeployItems() {
		recorded[it.ID] = it
	}
	for _, it := range newestSnap.DeployItems() {
		rec, ok := recorded[it.ID]
		if !ok {
			if len(it.ProviderStatus) > 0 {
				out.Missing = append(out.Missing, it.ID)
			}
			continue
		}
		delete(recorded, it.ID)
		config := rec.Config
		if it.Masked() { // a masked configuration stays masked (withoutCredentials)
			config = it.Config
		}
		inventory.Claim(it, rec.ProviderStatus, config)
		if it.AppliedTarget == nil && rec.AppliedTarget != nil {
			// Its own target held credentials: the cluster it was found
			// in, through the target the import searched it with, which
			// the root holds so that refresh and destroy trust it.
			it.AppliedTarget = rec.AppliedTarget
			addRootTarget(newestSnap.Root, *rec.AppliedTarget)
		}
	}
	if len(recorded) > 0 {
		// Recorded but not in the kept snapshot (a later job that kept
		// nothing): added as a lost state's, so the next job settles them.
		inventory.Merge(newestSnap, found.Snapshot)
	}
	return out
}

// foundIn names the searched targets whose clusters recorded an item of
// the rebuilt snapshot s (the item's applied target is the one searched).
func foundIn(s *engine.Snapshot) []string {
	seen := map[string]bool{}
	var out []string
	for _, it := range s.DeployItems() {
		if it.AppliedTarget != nil && !seen[it.AppliedTarget.Metadata.Name] {
			seen[it.AppliedTarget.Metadata.Name] = true
			out = append(out, it.AppliedTarget.Metadata.Name)
		}
	}
	return out
}

// addRootTarget adds t to the root's target imports under a name of its
// own ("inventory-<name>"), once.
func addRootTarget(root *snapshot.Installation, t api.Target) {
	if root.Targets.Single == nil {
		root.Targets.Single = map[string]api.Target{}
	}
	root.Targets.Single["inventory-"+t.Metadata.Name] = t
}

// Roots lists the root installations whose inventories the clusters of
// targets hold (inventory.Roots): what `terraform query` finds after a
// lost state. labelSelector (may be "") selects among their parent Secrets.
func (r Runner) Roots(ctx context.Context, targets []api.Target, labelSelector string) ([]string, error) {
	return inventory.Roots(ctx, r.Pool, targets, labelSelector)
}
