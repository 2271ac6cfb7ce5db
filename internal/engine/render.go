package engine

import (
	"context"
	"errors"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/installation"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// RenderedTree is what Render found; see installation.RenderedTree.
type RenderedTree = installation.RenderedTree

// RenderedItem is one deploy item of a RenderedTree.
type RenderedItem = installation.RenderedItem

// Render renders the whole tree without a cluster and without running
// anything: every deploy item it can know (ID, name, type, target
// selector, dependsOn, config hash) and the installations whose items
// depend on exports that exist only after apply (RenderedTree.Unknown, not
// errors). Render-time errors — duplicate names, unknown dependsOn,
// cycles ("a -> b -> c -> a"), sibling cycles, template errors — are
// returned joined; the tree holds what rendered either way.
func Render(ctx context.Context, spec RootSpec, prev *Snapshot) (*RenderedTree, error) {
	if err := validateSpec(spec); err != nil {
		return &RenderedTree{}, err
	}
	tree, err := renderTree(ctx, spec, rootOf(prev))
	if tree == nil {
		tree = &RenderedTree{}
	}
	return tree, err
}

// Render is the package's Render followed by each deployer's own check of
// the rendered configurations (deployer.Deployer.Validate): an unknown
// deploy item type or a configuration its deployer would reject is a plan
// error naming the installation, the deploy execution and the item,
// instead of a failed apply that then also blocks destroy. What a deployer
// accepts but does not honour as Landscaper does (deployer.Warner) is
// added to the tree's warnings.
func (e *Engine) Render(ctx context.Context, spec RootSpec, prev *Snapshot) (*RenderedTree, error) {
	tree, err := Render(ctx, spec, prev)
	err = errors.Join(err, e.checkItems(tree, jobRefs(spec, rootOf(prev))))
	if err == nil {
		tree.Warnings = append(tree.Warnings, e.itemWarnings(tree.Items)...)
	}
	return tree, err
}

// rootOf is the root installation of prev, nil for none.
func rootOf(prev *Snapshot) *snapshot.Installation {
	if prev == nil {
		return nil
	}
	return prev.Root
}
