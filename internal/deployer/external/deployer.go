package external

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Defaults of Options.
const (
	// DefaultPickupTimeout is Landscaper's default (deployItemTimeouts.pickup).
	DefaultPickupTimeout = 5 * time.Minute
	// DefaultAbortTimeout is far below Landscaper's five minutes: a
	// cancelled deployer call has only the rest of the engine's grace
	// (Engine.Grace, half of 5 s after an interrupt) to return before the
	// engine gives it up.
	DefaultAbortTimeout = 2 * time.Second
)

// Options configure a Deployer.
type Options struct {
	// Client reaches the cluster where the DeployItems live and their
	// deployers watch them.
	Client dynamic.Interface
	// Namespace holds the DeployItems, Targets and Contexts ("default"
	// if empty).
	Namespace string
	// PickupTimeout is how long a job may wait for a deployer to pick it
	// up; 0: DefaultPickupTimeout, negative: no limit.
	PickupTimeout time.Duration
	// AbortTimeout is how long a deployer that was asked to abort may take
	// to stop; 0: DefaultAbortTimeout, negative: end the job at once.
	AbortTimeout time.Duration
	// Context is the content of the Context every DeployItem names (a
	// Landscaper Context's fields besides its metadata: registry pull
	// secrets, configurations, …); nil: an empty Context.
	Context map[string]any
}

// Deployer hands deploy items to a deployer that runs in a cluster,
// playing Landscaper's side of the deployer contract for each item.
type Deployer struct {
	client        dynamic.Interface
	namespace     string
	pickupTimeout time.Duration
	abortTimeout  time.Duration
	context       map[string]any
}

var _ deployer.Deployer = (*Deployer)(nil)

// New returns a Deployer with opts.
func New(opts Options) *Deployer {
	d := &Deployer{client: opts.Client, namespace: opts.Namespace, pickupTimeout: opts.PickupTimeout, abortTimeout: opts.AbortTimeout, context: opts.Context}
	if d.namespace == "" {
		d.namespace = "default"
	}
	switch {
	case d.pickupTimeout == 0:
		d.pickupTimeout = DefaultPickupTimeout
	case d.pickupTimeout < 0:
		d.pickupTimeout = 0
	}
	switch {
	case d.abortTimeout == 0:
		d.abortTimeout = DefaultAbortTimeout
	case d.abortTimeout < 0:
		d.abortTimeout = 0
	}
	return d
}

// namesOf returns where item's objects are: where its provider status
// says, else in the configured namespace.
func (d *Deployer) namesOf(item deployer.Item, prev *ProviderStatus) names {
	if prev != nil && prev.Namespace != "" && prev.Name != "" {
		return names{namespace: prev.Namespace, object: prev.Name}
	}
	return names{namespace: d.namespace, object: nameFor(item.ID)}
}

// Apply implements deployer.Deployer: it writes the item's Target,
// Context and DeployItem, starts a job and waits until the deployer
// finished it. The provider status names the objects as soon as they may
// exist, also on error.
func (d *Deployer) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	keep := deployer.Result{ProviderStatus: item.ProviderStatus}
	config, err := parseConfig(item.Config)
	if err != nil {
		return keep, itemError(item, err)
	}
	prev, err := decodeStatus(item.ProviderStatus)
	if err != nil {
		return keep, itemError(item, failure.NewTerminal("InvalidProviderStatus", err))
	}
	n := names{namespace: d.namespace, object: nameFor(item.ID)}
	if old := d.namesOf(item, prev); old != n {
		// The objects were written elsewhere (the namespace setting
		// changed): uninstall them there first, so nothing is left behind.
		if err := d.deleteAt(ctx, item, old, false); err != nil {
			return keep, itemError(item, fmt.Errorf("moving the DeployItem from %s to %s: %w", old.namespace, n.namespace, err))
		}
	}
	status := newStatus(n, item.Target != nil)
	res := d.client.Resource(DeployItems).Namespace(n.namespace)
	obj := deployItemObject(item, n, config, time.Now())
	live, err := claim(ctx, res, item, obj)
	if err != nil {
		return keep, itemError(item, err)
	}
	if live != nil && live.GetDeletionTimestamp() != nil {
		// A deletion that did not finish (an interrupted destroy): end it
		// through the deployer, then start over.
		if err := d.finishDeletion(ctx, item, res, live); err != nil {
			status.observe(live)
			return deployer.Result{ProviderStatus: status.encode()}, itemError(item, fmt.Errorf("%s is being deleted and its deletion did not finish: %w", describe(live), err))
		}
		live = nil // gone now
	}
	if err := d.applySupport(ctx, item, n); err != nil {
		return deployer.Result{ProviderStatus: status.encode()}, itemError(item, err)
	}
	written, err := put(ctx, res, item, obj, live)
	if err != nil {
		return deployer.Result{ProviderStatus: status.encode()}, itemError(item, err)
	}
	status.observe(written)
	out, err := d.runJob(ctx, res, written, item.Timeout)
	if out.obj != nil {
		status.observe(out.obj)
	}
	if err == nil && out.gone {
		err = fmt.Errorf("%s was deleted while its job ran", describe(written))
	}
	if err != nil {
		return deployer.Result{ProviderStatus: status.encode()}, itemError(item, err)
	}
	res2, err := d.result(ctx, out.obj)
	res2.ProviderStatus = status.encode()
	return res2, itemError(item, err)
}

// applySupport writes the Target (if the item names one) and the Context
// the DeployItem references, at the same time.
func (d *Deployer) applySupport(ctx context.Context, item deployer.Item, n names) error {
	type objectWrite struct {
		res dynamic.ResourceInterface
		obj *unstructured.Unstructured
	}
	var objs []objectWrite
	if item.Target != nil {
		t, err := targetObject(item, n)
		if err != nil {
			return err
		}
		objs = append(objs, objectWrite{res: d.client.Resource(Targets).Namespace(n.namespace), obj: t})
	}
	objs = append(objs, objectWrite{res: d.client.Resource(Contexts).Namespace(n.namespace), obj: contextObject(item, n, d.context)})
	errs := make(chan error, len(objs))
	for _, w := range objs {
		go func() {
			live, err := claim(ctx, w.res, item, w.obj)
			if err == nil {
				_, err = put(ctx, w.res, item, w.obj, live)
			}
			errs <- err
		}()
	}
	var first error
	for range objs {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Validate implements deployer.Deployer. The configuration is opaque to
// this side: only the deployer knows its schema. Landscaper's API takes
// it as an embedded object, so it must be a JSON object with apiVersion
// and kind.
func (d *Deployer) Validate(config json.RawMessage) error {
	_, err := parseConfig(config)
	return err
}

func parseConfig(raw json.RawMessage) (map[string]any, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, failure.Terminalf("InvalidConfig", "the deploy item has no config; its deployer needs a provider configuration")
	}
	var config map[string]any
	if err := json.Unmarshal(raw, &config); err != nil {
		return nil, failure.Terminalf("InvalidConfig", "config must be an object: %v", err)
	}
	for _, field := range []string{"apiVersion", "kind"} {
		if v, ok := config[field].(string); !ok || v == "" {
			return nil, failure.Terminalf("InvalidConfig", "config has no %s: a DeployItem's config is a typed object (apiVersion and kind name its deployer's provider configuration)", field)
		}
	}
	return config, nil
}

// itemError names the deploy item; the failure class is kept.
func itemError(item deployer.Item, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("deploy item %q: %w", item.Name, err)
}
