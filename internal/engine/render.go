package engine

import (
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/installation"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// Plan is what Render found; see installation.Plan.
type Plan = installation.Plan

// PlannedItem is one deploy item of a Plan.
type PlannedItem = installation.PlannedItem

// Render renders the whole tree without a cluster and without running
// anything: every deploy item it can know (ID, name, type, target
// selector, dependsOn, config hash) and the installations whose items
// depend on exports that exist only after apply (Plan.Unknown, not
// errors). Render-time errors — duplicate names, unknown dependsOn,
// cycles ("a -> b -> c -> a"), sibling cycles, template errors — are
// returned joined; the plan holds what rendered either way.
func Render(spec RootSpec, prev *Snapshot) (*Plan, error) {
	if err := validateSpec(spec); err != nil {
		return &Plan{}, err
	}
	var prevRoot *snapshot.Installation
	if prev != nil {
		prevRoot = prev.Root
	}
	return installation.PlanTree(rootInstallation(spec), prevRoot)
}
