package engine

import (
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
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
// resolved now. Requests come in the tree's item order.
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
	out := make([]deployer.PreviewRequest, 0, len(tree.Items))
	for _, it := range tree.Items {
		in := byPath[it.Installation]
		item := deployer.Item{ID: it.ID, Name: it.Name, Type: it.Type, Config: it.Config, Files: in.Files()}
		if t, err := in.Target(it.Target); err == nil {
			item.Target = t
		}
		if p := recorded[it.ID]; p != nil {
			item.ProviderStatus = p.ProviderStatus
			if item.Target == nil && p.AppliedTarget != nil {
				t := *p.AppliedTarget
				item.Target = &t
			}
		}
		out = append(out, deployer.PreviewRequest{Item: item})
	}
	return out
}
