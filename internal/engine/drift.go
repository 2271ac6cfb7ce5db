package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
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
// did not succeed are left out: the next apply re-applies them anyway.
// Errors name the deploy item; the result lists drifted items by ID.
func (e *Engine) Drift(ctx context.Context, snap *Snapshot) ([]DriftedItem, error) {
	type work struct {
		item    *snapshot.DeployItem
		targets snapshot.TargetImports
	}
	var todo []work
	for _, in := range snap.Installations() {
		if in.Execution == nil {
			continue
		}
		for _, it := range in.Execution.DeployItems {
			if it.Phase == api.DeployItemPhaseSucceeded {
				todo = append(todo, work{it, in.Targets})
			}
		}
	}
	parallelism := e.Parallelism
	if parallelism <= 0 {
		parallelism = DefaultParallelism
	}
	var (
		mu      sync.Mutex
		drifted []DriftedItem
		errs    []error
		wg      sync.WaitGroup
		slots   = make(chan struct{}, parallelism)
	)
	for _, w := range todo {
		wg.Add(1)
		slots <- struct{}{}
		go func() {
			defer func() { <-slots; wg.Done() }()
			report, err := e.driftOne(ctx, w.item, w.targets)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err != nil:
				errs = append(errs, fmt.Errorf("deploy item %s: drift check: %w", w.item.ID, err))
			case report.Drifted:
				drifted = append(drifted, DriftedItem{ID: w.item.ID, Name: w.item.Name, Type: w.item.Type, Reason: report.Reason})
			}
		}()
	}
	wg.Wait()
	sort.Slice(drifted, func(i, j int) bool { return drifted[i].ID < drifted[j].ID })
	return drifted, errors.Join(errs...)
}

func (e *Engine) driftOne(ctx context.Context, it *snapshot.DeployItem, targets snapshot.TargetImports) (deployer.DriftReport, error) {
	if e.Deployers == nil {
		return deployer.DriftReport{}, fmt.Errorf("no deployer registry")
	}
	d, err := e.Deployers.Lookup(it.Type)
	if err != nil {
		return deployer.DriftReport{}, err
	}
	target, err := targets.Select(it.Target)
	if err != nil {
		return deployer.DriftReport{}, err
	}
	return d.Drift(ctx, deployer.Item{ID: it.ID, Name: it.Name, Type: it.Type, Target: target, Config: it.Config,
		Timeout: it.Timeout.Effective(), ProviderStatus: it.ProviderStatus})
}
