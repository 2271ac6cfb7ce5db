// Package mock is the deployer of type landscaper.gardener.cloud/mock: it
// deploys nothing real but keeps an in-memory "cluster" of what it applied,
// so tests can check that the engine never loses a deployed item, and its
// config scripts phases, exports, delays and failures (see Config).
package mock

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"sync"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/fingerprint"
)

var (
	_ deployer.Deployer   = (*Deployer)(nil)
	_ deployer.FileReader = (*Deployer)(nil)
)

// ReadsFiles implements deployer.FileReader: the mock reads no files.
func (d *Deployer) ReadsFiles() bool { return false }

// Deployer is the mock deployer. The zero value is not usable; use New.
type Deployer struct {
	mu         sync.Mutex
	cluster    map[string]string // item ID -> config hash of what is deployed
	applies    map[string]int    // item ID -> Apply calls so far
	deletes    map[string]int    // item ID -> Delete calls so far
	events     []Event
	running    int
	maxRunning int
}

// Event is one call, for tests that check order and concurrency.
type Event struct {
	Op    string // "apply" or "delete"
	ID    string
	Start bool // false: the call returned
	At    time.Time
}

// New returns a mock deployer with an empty cluster.
func New() *Deployer {
	return &Deployer{cluster: map[string]string{}, applies: map[string]int{}, deletes: map[string]int{}}
}

// Apply "creates" the item at once, then waits Delay for readiness and
// ends as scripted. Like a real deployer it reports the provider status of
// what exists even when it fails.
func (d *Deployer) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	cfg, err := parse(item.Config)
	if err != nil {
		return deployer.Result{ProviderStatus: item.ProviderStatus}, fmt.Errorf("mock deploy item %q: %w", item.Name, err)
	}
	n := d.begin("apply", item.ID)
	defer d.end("apply", item.ID)
	if n <= cfg.TransientFailures {
		return deployer.Result{ProviderStatus: item.ProviderStatus},
			failure.NewTransient("MockTransient", fmt.Errorf("mock deploy item %q: scripted transient failure %d of %d", item.Name, n, cfg.TransientFailures))
	}
	d.mu.Lock()
	d.cluster[item.ID] = hash(item.Config, nil) // the simulated cluster holds the real config
	d.mu.Unlock()
	res := deployer.Result{ProviderStatus: providerStatus(item, cfg), Exports: cfg.Export}
	if err := sleep(ctx, cfg.delay); err != nil {
		return res, fmt.Errorf("mock deploy item %q: waiting for readiness: %w", item.Name, err)
	}
	phase := cfg.Phase
	if cfg.InitialPhase != "" && len(item.ProviderStatus) == 0 {
		phase = cfg.InitialPhase
	}
	if phase == api.DeployItemPhaseFailed {
		return res, failure.Terminalf("MockFailed", "mock deploy item %q: scripted phase Failed", item.Name)
	}
	return res, nil
}

// Delete removes the item from the cluster (unless WithoutUninstall).
func (d *Deployer) Delete(ctx context.Context, item deployer.Item, opts deployer.DeleteOptions) error {
	cfg, err := parse(item.Config)
	if err != nil {
		return fmt.Errorf("mock deploy item %q: %w", item.Name, err)
	}
	d.mu.Lock()
	d.deletes[item.ID]++
	n := d.deletes[item.ID]
	d.mu.Unlock()
	d.record("delete", item.ID, true)
	defer d.record("delete", item.ID, false)
	if opts.WithoutUninstall {
		return nil
	}
	if n <= cfg.DeleteTransientFailures {
		return failure.NewTransient("MockTransient", fmt.Errorf("mock deploy item %q: scripted transient delete failure %d", item.Name, n))
	}
	if cfg.DeleteFails {
		return failure.Terminalf("MockDeleteFailed", "mock deploy item %q: scripted delete failure", item.Name)
	}
	if err := sleep(ctx, cfg.deleteDelay); err != nil {
		return fmt.Errorf("mock deploy item %q: deleting: %w", item.Name, err)
	}
	d.mu.Lock()
	delete(d.cluster, item.ID)
	d.mu.Unlock()
	return nil
}

// Drift reports an item as drifted when it is missing from the cluster or
// deployed with another config.
func (d *Deployer) Drift(_ context.Context, item deployer.Item) (deployer.DriftReport, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	deployed, ok := d.cluster[item.ID]
	switch {
	case !ok:
		return deployer.DriftReport{Drifted: true, Reason: fmt.Sprintf("mock deploy item %q does not exist", item.Name)}, nil
	case deployed != hash(item.Config, nil):
		return deployer.DriftReport{Drifted: true, Reason: fmt.Sprintf("mock deploy item %q is deployed with another config", item.Name)}, nil
	}
	return deployer.DriftReport{}, nil
}

// Validate implements deployer.Deployer with the parser Apply uses.
func (d *Deployer) Validate(config json.RawMessage) error {
	_, err := parse(config)
	return err
}

// Deployed returns the IDs of the items in the cluster, sorted.
func (d *Deployer) Deployed() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	ids := make([]string, 0, len(d.cluster))
	for id := range d.cluster {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Remove deletes an item from the cluster behind the engine's back.
func (d *Deployer) Remove(id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.cluster, id)
}

// Events returns the calls so far, in order.
func (d *Deployer) Events() []Event {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]Event(nil), d.events...)
}

// MaxConcurrentApplies is the most Apply calls that ran at once.
func (d *Deployer) MaxConcurrentApplies() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.maxRunning
}

func (d *Deployer) begin(op, id string) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.applies[id]++
	d.running++
	d.maxRunning = max(d.maxRunning, d.running)
	d.events = append(d.events, Event{Op: op, ID: id, Start: true, At: time.Now()})
	return d.applies[id]
}

func (d *Deployer) end(op, id string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.running--
	d.events = append(d.events, Event{Op: op, ID: id, At: time.Now()})
}

func (d *Deployer) record(op, id string, start bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.events = append(d.events, Event{Op: op, ID: id, Start: start, At: time.Now()})
}

func providerStatus(item deployer.Item, cfg parsed) json.RawMessage {
	if len(cfg.ProviderStatus) > 0 {
		return cfg.ProviderStatus
	}
	b, _ := json.Marshal(map[string]string{"id": item.ID, "configHash": hash(item.Config, item.WriteOnly)})
	return b
}

// hash is the first 64 bits of the config's fingerprint: the provider
// status is stored.
func hash(b []byte, wo fingerprint.Forms) string {
	return fingerprint.Encoded(b, wo)[:16]
}

func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return context.Cause(ctx)
	case <-t.C:
		return nil
	}
}
