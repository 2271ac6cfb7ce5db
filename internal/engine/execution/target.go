package execution

import (
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// The targets a deployer is handed: resolved from an item's selector or
// its record, and checked against the job's ProviderRefs on the way.

// CheckTarget is the one check of a target before any deployer gets it:
// one that takes a kubeconfig of the provider block must be one of the
// root's target imports of this job (snapshot.ProviderRefs), else a
// blueprint of another installation could borrow that installation's
// cluster with a reference it read from an inventory. The error names the
// target and the item, never a kubeconfig or the reference.
func CheckTarget(refs snapshot.ProviderRefs, target *api.Target, itemID string) error {
	if refs.Allows(target) {
		return nil
	}
	return failure.Terminalf("UntrustedTarget",
		"deploy item %s: target %q refers to a kubeconfig of the provider block, but it is none of the target imports of this installation "+
			"(a blueprint built it, or it belongs to another installation)", itemID, target.Metadata.Name)
}

// Targeted is item with target, which refs must allow (CheckTarget): the
// one way an Item gets its target (TestItemTargets_OnlyThroughTheCheck).
func Targeted(refs snapshot.ProviderRefs, item deployer.Item, target *api.Target) (deployer.Item, error) {
	if err := CheckTarget(refs, target, item.ID); err != nil {
		return item, err
	}
	item.Target = target
	return item, nil
}

// WithTarget is req with target, for a preview, when refs allow it;
// otherwise req keeps no target (a preview never contacts it, and the
// apply reports the refusal).
func WithTarget(refs snapshot.ProviderRefs, req deployer.PreviewRequest, target *api.Target) deployer.PreviewRequest {
	if item, err := Targeted(refs, req.Item, target); err == nil {
		req.Item = item
	}
	return req
}

// WithNamedTargets is item with targets by name (Item.Targets,
// Landscaper's targetName) but those refs do not allow; a name the item's
// configuration uses (names) that refers to one of them fails with
// CheckTarget's error instead of a missing name.
func WithNamedTargets(refs snapshot.ProviderRefs, item deployer.Item, targets snapshot.TargetImports, names []string) (deployer.Item, error) {
	byName, _ := targets.ByName() // an ambiguous name fails the plan (Engine.Render)
	for _, name := range names {
		if err := CheckTarget(refs, byName[name], item.ID); err != nil {
			return item, err
		}
	}
	for name, t := range byName {
		if !refs.Allows(t) {
			delete(byName, name)
		}
	}
	item.Targets = byName
	return item, nil
}

// SelectTarget resolves the item's target selector in targets: the target
// an Apply goes to.
func SelectTarget(targets snapshot.TargetImports, it *snapshot.DeployItem) (*api.Target, error) {
	target, err := targets.Select(it.Target)
	if err != nil {
		return nil, failure.NewTerminal("TargetNotFound", fmt.Errorf("deploy item %s: %w", it.ID, err))
	}
	return target, nil
}

// AppliedTarget is the target what an item deployed is deleted from and
// checked against: the one it was last applied with (ARCHITECTURE.md,
// "Deletion"). An item that recorded none — never applied, or from a
// snapshot written before targets were recorded per item — falls back to
// its selector resolved in targets.
func AppliedTarget(targets snapshot.TargetImports, it *snapshot.DeployItem) (*api.Target, error) {
	if it.AppliedTarget != nil {
		t := *it.AppliedTarget
		return &t, nil
	}
	return SelectTarget(targets, it)
}
