package engine

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"sync"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// DriftedItem is a deploy item whose target no longer matches what it
// deployed.
type DriftedItem struct {
	ID, Name, Type string
	// Reason names the object and what differs; never secret values.
	Reason string
}

// Drift asks each succeeded deploy item's deployer, once per item and up
// to Parallelism at a time, whether the target still matches. Items that
// did not succeed are left out: the next apply re-applies them anyway;
// so are items whose stored configuration masks write-only values
// (DeployItem.Masked).
// root and comp are the root's blueprint and component descriptor (nil
// when they cannot be loaded): deployers that read blueprint files (a
// local Helm chart) get the files of the blueprint that rendered the
// item, found through the snapshot's subinstallation sources. Errors name
// the deploy item; the result lists drifted items by ID.
func (e *Engine) Drift(ctx context.Context, snap *Snapshot, root *blueprint.Blueprint, comp *blueprint.Component) ([]DriftedItem, error) {
	started := time.Now()
	var calls []execution.Call
	var errs []error
	registry := e.registry()
	shared := deployer.NewSharedReads() // every item is read: one list of a kind answers for all of them
	refs := snapshot.RootProviderRefs(snap.Root.Targets)
	for _, w := range driftWork(snap.Root, root, comp) {
		for _, it := range w.in.Execution.DeployItems {
			// A masked configuration (write-only imports) no longer says
			// what was deployed: such an item is not compared; nor one
			// rebuilt from an inventory without its configuration, which
			// the inventory kept sealed (inventory/seal.go: an import).
			if it.Phase != api.DeployItemPhaseSucceeded || it.Masked() || (it.Rebuilt && len(it.Config) == 0) {
				continue
			}
			target, err := execution.AppliedTarget(w.in.Targets, it)
			if err != nil {
				errs = append(errs, fmt.Errorf("drift check: %w", err))
				continue
			}
			c, err := execution.NewCall(registry, refs, target, w.files, it, e.DefaultTimeout)
			if err != nil {
				errs = append(errs, fmt.Errorf("drift check: %w", err))
				continue
			}
			c.Item.SharedReads = shared
			calls = append(calls, c)
		}
	}
	parallelism := e.Parallelism
	if parallelism <= 0 {
		parallelism = DefaultParallelism
	}
	var (
		mu      sync.Mutex
		drifted []DriftedItem
		wg      sync.WaitGroup
		slots   = make(chan struct{}, parallelism)
	)
	for _, c := range calls {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			report, err := driftOne(ctx, c)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				errs = append(errs, fmt.Errorf("deploy item %s: drift check: %w", c.Item.ID, err))
			case report.Drifted:
				drifted = append(drifted, DriftedItem{ID: c.Item.ID, Name: c.Item.Name, Type: c.Item.Type, Reason: report.Reason})
			}
		}()
	}
	wg.Wait()
	sort.Slice(drifted, func(i, j int) bool { return drifted[i].ID < drifted[j].ID })
	if e.Log != nil && snap.Root != nil {
		// With TF_LOG_PROVIDER=INFO: how long each refresh waits for its
		// cluster, beside what the framework and Terraform cost.
		e.Log.Info("drift check finished", "installation", snap.Root.Path, "items", len(calls), "drifted", len(drifted),
			"errors", len(errs), "duration", time.Since(started).Round(time.Millisecond).String())
	}
	return drifted, errors.Join(errs...)
}

// installationFiles is an installation with an execution and the files of
// its blueprint (nil when they cannot be found).
type installationFiles struct {
	in    *snapshot.Installation
	files fs.FS
}

// driftWork walks the tree below in, whose blueprint is bp, and pairs
// every installation that has deploy items with its blueprint's files. A
// subinstallation's blueprint is loaded from its recorded source, as its
// parent loaded it; one that cannot be loaded (or a snapshot written
// before sources were recorded) gives nil files, which only deployers
// that need files report.
func driftWork(in *snapshot.Installation, bp *blueprint.Blueprint, comp *blueprint.Component) []installationFiles {
	if in == nil {
		return nil
	}
	var out []installationFiles
	if in.Execution != nil {
		w := installationFiles{in: in}
		if bp != nil {
			w.files = bp.Files
		}
		out = append(out, w)
	}
	for _, sub := range in.Subinstallations {
		var subBP *blueprint.Blueprint
		if bp != nil && sub.Blueprint != nil {
			loaded, err := bp.Subinstallation(api.SubinstallationTemplate{Name: sub.Name, Blueprint: *sub.Blueprint}, comp)
			if err == nil {
				subBP = loaded
			}
		}
		out = append(out, driftWork(sub, subBP, comp)...)
	}
	return out
}

// driftOne runs one Drift call; a panicking deployer is an error of its item.
func driftOne(ctx context.Context, c execution.Call) (report deployer.DriftReport, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = failure.FromPanic("the deployer", p)
		}
	}()
	return c.Deployer.Drift(ctx, c.Item)
}
