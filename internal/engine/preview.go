package engine

import (
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/installation"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// RenderedInstallation is one installation of a RenderedTree.
type RenderedInstallation = installation.RenderedInstallation

// PreviewItems pairs every rendered item of tree with what its deployer's
// Preview needs (deployer.PreviewRequest without capabilities): the
// item's configuration, the files of the blueprint that rendered it, the
// provider status of its last apply in prev (nil: none; a Helm release's
// next revision depends on it) and its target as the next apply resolves
// it, or the one it was last applied with when the selector cannot be
// resolved now, and its configuration at that apply (Applied). Requests come in the tree's item order.
func PreviewItems(tree *RenderedTree, prev *Snapshot) []deployer.PreviewRequest {
	byPath := make(map[string]RenderedInstallation, len(tree.Installations))
	for _, in := range tree.Installations {
		byPath[in.Path] = in
	}
	recorded := map[string]*snapshot.DeployItem{}
	if !prev.Empty() {
		for _, it := range prev.DeployItems() {
			recorded[it.ID] = it
		}
	}
	refs := snapshot.RootProviderRefs(tree.RootTargets())
	if !prev.Empty() {
		refs = snapshot.RootProviderRefs(tree.RootTargets(), prev.Root.Targets)
	}
	out := make([]deployer.PreviewRequest, 0, len(tree.Items))
	for _, it := range tree.Items {
		in := byPath[it.Installation]
		item := deployer.Item{ID: it.ID, Name: it.Name, Type: it.Type, Config: it.Config, Files: in.Files()}
		target, err := in.Target(it.Target)
		if err != nil {
			target = nil
		}
		var applied []byte
		if p := recorded[it.ID]; p != nil {
			item.ProviderStatus, applied = p.ProviderStatus, appliedConfig(p)
			item.Rebuilt = p.Rebuilt
			if target == nil && p.AppliedTarget != nil {
				t := *p.AppliedTarget
				target = &t
			}
		}
		out = append(out, execution.WithTarget(refs, deployer.PreviewRequest{Item: item, Applied: applied}, target))
	}
	return out
}

// RecordedPreviewItems is PreviewItems for what snap recorded: every
// deploy item with its recorded configuration and provider status, the
// target it was applied with (its selector resolved in the recorded
// imports when it never was) and the files of the blueprint that
// rendered it (root and comp are the root's, nil when they cannot be
// loaded; subinstallations' are loaded from their recorded sources, as a
// drift check loads them). For a state that recorded no text yet, and an
// apply whose plan could not know every item.
func RecordedPreviewItems(snap *Snapshot, root *blueprint.Blueprint, comp *blueprint.Component) []deployer.PreviewRequest {
	if snap.Empty() {
		return nil
	}
	var out []deployer.PreviewRequest
	refs := snapshot.RootProviderRefs(snap.Root.Targets)
	for _, w := range driftWork(snap.Root, root, comp) {
		for _, it := range w.in.Execution.DeployItems {
			item := deployer.Item{ID: it.ID, Name: it.Name, Type: it.Type, Config: it.Config, ProviderStatus: it.ProviderStatus, Files: w.files,
				Rebuilt: it.Rebuilt}
			t, err := execution.AppliedTarget(w.in.Targets, it)
			if err != nil {
				t = nil
			}
			out = append(out, execution.WithTarget(refs, deployer.PreviewRequest{Item: item, Applied: appliedConfig(it)}, t))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Item.ID < out[j].Item.ID })
	return out
}

// appliedConfig is the configuration an item's last apply of this
// provider used (PreviewRequest.Applied), nil for an item rebuilt from an
// inventory: what a cluster holds is a claim, and the plan-time chart
// host rule (a chart is fetched at plan only from the host the last apply
// fetched it from) must not take a planted record's host for one.
func appliedConfig(it *snapshot.DeployItem) []byte {
	if it.Rebuilt {
		return nil
	}
	return it.Config
}
