package instance

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"sync"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
)

// Migration from a running Landscaper (docs/guides/migrating-from-landscaper.md):
// the adoption job renders the Installation exactly as a plan would, and
// for every deploy item its deployer's Adopt (deployer.Adopter) turns what
// Landscaper's deployer recorded into this provider's provider status,
// reading the target clusters and writing nothing. Its snapshot is the one
// a job of this provider would have left.

// Adopted is what an adoption job leaves.
type Adopted struct {
	// Snapshot records what Landscaper deployed, the items in Differing
	// marked drifted (snapshot MarkDrifted).
	Snapshot *engine.Snapshot
	// Differing are the deploy items whose configuration, as this
	// provider renders it, differs from what Landscaper deployed, so the
	// plan shows their update.
	Differing []string
}

// Adopt runs the adoption job of spec, the Installation landscape holds,
// read from Landscaper's host cluster. It fails, having changed nothing,
// when a rendered item has no DeployItem in landscape or the other way
// round, or when a deployer cannot adopt its item; the error lists every
// failed deploy item.
func (r Runner) Adopt(ctx context.Context, spec engine.RootSpec, landscape *landscaperstate.Landscape) (Adopted, error) {
	adopting := newAdoption(r.Engine.Deployers, spec.Name, landscape)
	e := r.engine()
	e.Deployers = adopting.registry()
	// Export executions must not write to target clusters either
	// (getServiceAccountKubeconfig creates a token).
	e.Clusters = nil
	snap, err := e.Apply(ctx, spec, nil)
	err = errors.Join(err, adopting.unadopted())
	if err == nil && snap.RootPhase() != api.InstallationPhaseSucceeded {
		err = fmt.Errorf("installation %s ended in phase %s", spec.Name, snap.RootPhase())
	}
	if err != nil {
		return Adopted{}, failureReport(snap, err)
	}
	differing := adopting.differing()
	snap.MarkDrifted(differing)
	return Adopted{Snapshot: snap, Differing: differing}, nil
}

// adoption stands in for the deployers during the adoption job of an
// import: each deploy item the engine renders is matched, by its ID, with
// the DeployItem Landscaper made for it, and its deployer's Adopt converts
// what Landscaper's deployer recorded. Nothing is applied or deleted.
type adoption struct {
	deployers *deployer.Registry
	// items are Landscaper's DeployItems by this provider's deploy item
	// ID ("<root>/<subinstallation…>/<item>").
	items map[string]*landscaperstate.DeployItem

	mu sync.Mutex
	// matched are the items rendered as Landscaper's DeployItem of the
	// same ID and type; adopted those their deployer took over.
	matched, adopted map[string]bool
	differs          []string
}

func newAdoption(deployers *deployer.Registry, root string, l *landscaperstate.Landscape) *adoption {
	a := &adoption{deployers: deployers, items: map[string]*landscaperstate.DeployItem{}, matched: map[string]bool{}, adopted: map[string]bool{}}
	var walk func(inst *landscaperstate.Installation, path string)
	walk = func(inst *landscaperstate.Installation, path string) {
		if inst.Execution != nil {
			for _, di := range inst.Execution.DeployItems {
				a.items[path+"/"+di.Name] = di
			}
		}
		for _, sub := range inst.Subinstallations {
			walk(sub, path+"/"+sub.SpecName)
		}
	}
	walk(l.Root, root)
	return a
}

// registry is the job's deployer registry: every type served by an
// adoptingDeployer in front of the real deployer.
func (a *adoption) registry() *deployer.Registry {
	return a.deployers.Wrap(func(_ string, d deployer.Deployer) deployer.Deployer {
		return adoptingDeployer{real: d, adoption: a}
	})
}

// unadopted fails when Landscaper has deploy items the configuration does
// not render (as items of the same type): they would be left in the
// clusters unknown to the state. An item that renders but whose deployer
// cannot adopt it fails on its own (adoptingDeployer.Apply), not here.
func (a *adoption) unadopted() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	var left []string
	for id, di := range a.items {
		if !a.matched[id] && !a.adopted[id] {
			left = append(left, fmt.Sprintf("%s (deploy item %s)", di.ObjectRef, id))
		}
	}
	if len(left) == 0 {
		return nil
	}
	sort.Strings(left)
	return fmt.Errorf("the Installation, rendered by this provider, does not render what Landscaper deployed for %s; "+
		"nothing was imported, so nothing they deployed is orphaned", strings.Join(left, ", "))
}

// differing are the adopted items whose configuration differs from the
// one Landscaper deployed.
func (a *adoption) differing() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := append([]string(nil), a.differs...)
	sort.Strings(out)
	return out
}

// adoptingDeployer is one deployer during the adoption job.
type adoptingDeployer struct {
	real     deployer.Deployer
	adoption *adoption
}

// Apply returns what Landscaper deployed for item, as the real deployer
// records it, and the item's exports as Landscaper exported them.
func (d adoptingDeployer) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	a := d.adoption
	di := a.items[item.ID]
	if di == nil {
		return deployer.Result{}, failure.Terminalf("NotInLandscaper",
			"deploy item %s is rendered by the Installation, but Landscaper has no DeployItem for it; let Landscaper reconcile the installation, then import again", item.ID)
	}
	if di.Type != item.Type {
		return deployer.Result{}, failure.Terminalf("AdoptTypeDiffers", "deploy item %s has type %s, but Landscaper's %s has type %s", item.ID, item.Type, di.ObjectRef, di.Type)
	}
	a.mu.Lock()
	a.matched[item.ID] = true
	a.mu.Unlock()
	adopter, ok := d.adoption.deployers.Adopter(item.Type)
	if !ok {
		return deployer.Result{}, failure.Terminalf("AdoptUnsupported",
			"deploy item %s renders as Landscaper's %s, but items of type %s cannot be adopted: this provider cannot take over what "+
				"that deployer deployed; remove the item from the blueprint (and let Landscaper reconcile) before migrating, or keep the installation in Landscaper",
			item.ID, di.ObjectRef, item.Type)
	}
	status, err := adopter.Adopt(ctx, item, deployer.Landscaped{DeployItem: di.ObjectRef.Name, Namespace: di.Namespace, UID: di.UID, ProviderStatus: di.ProviderStatus, Config: di.Config})
	if err != nil {
		return deployer.Result{}, err
	}
	var exports map[string]any
	if len(di.Exports) > 0 && string(di.Exports) != "null" {
		if err := json.Unmarshal(di.Exports, &exports); err != nil {
			return deployer.Result{}, failure.Terminalf("AdoptExports", "the exports of Landscaper's %s are not a JSON object", di.ObjectRef)
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.adopted[item.ID] = true
	if !sameJSON(item.Config, di.Config) {
		a.differs = append(a.differs, item.ID)
	}
	return deployer.Result{ProviderStatus: status, Exports: exports}, nil
}

// Delete is never called: the adoption job starts from no snapshot, so it
// has nothing to delete, and it must not delete anything.
func (d adoptingDeployer) Delete(_ context.Context, item deployer.Item, _ deployer.DeleteOptions) error {
	return failure.Terminalf("AdoptDelete", "internal error: deploy item %s would be deleted while it is adopted", item.ID)
}

func (d adoptingDeployer) Drift(ctx context.Context, item deployer.Item) (deployer.DriftReport, error) {
	return d.real.Drift(ctx, item)
}

func (d adoptingDeployer) Validate(config json.RawMessage) error { return d.real.Validate(config) }

// sameJSON compares two JSON documents by value (numbers by their text).
func sameJSON(a, b json.RawMessage) bool {
	decode := func(raw json.RawMessage) (any, bool) {
		var v any
		return v, api.DecodeExact(raw, &v, api.AllowTrailing) == nil
	}
	av, okA := decode(a)
	bv, okB := decode(b)
	return okA && okB && reflect.DeepEqual(av, bv)
}
