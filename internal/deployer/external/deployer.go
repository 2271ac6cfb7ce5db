package external

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Options configure a Deployer.
type Options struct {
	// Client reaches the cluster where the DeployItems live and their
	// deployers watch them. Without it, Connect is called once, at the
	// first call that needs the cluster.
	Client dynamic.Interface
	// Connect returns the client of that cluster and its target: the
	// item's home (deployer.Homed), where the installation's inventory
	// records the item. The target's kubeconfig must have Namespace as
	// its namespace.
	Connect func() (Connection, error)
	// Namespace holds the DeployItems, Targets and Contexts ("default"
	// if empty).
	Namespace string
	// Kubeconfig returns the kubeconfig of a target that takes it from
	// the provider block (true), to be written into a Secret its Target
	// references; false: the target carries its own. Nil: such targets
	// are refused.
	Kubeconfig func(*api.Target) (string, bool, error)
}

// Connection is the cluster of the DeployItems: a client and the
// target of the cluster (nil: the deployer has no home of its own).
type Connection struct {
	Client dynamic.Interface
	Home   *api.Target
}

// Deployer hands deploy items to a deployer that runs in a cluster,
// playing Landscaper's side of the deployer contract for each item.
type Deployer struct {
	namespace  string
	kubeconfig func(*api.Target) (string, bool, error)

	connect func() (Connection, error)
	once    sync.Once
	conn    Connection
	connErr error
	client  dynamic.Interface // conn.Client once connected
}

var (
	_ deployer.Deployer = (*Deployer)(nil)
	_ deployer.Homed    = (*Deployer)(nil)
	_ deployer.HandsOff = (*Deployer)(nil)
)

// New returns a Deployer with opts.
func New(opts Options) *Deployer {
	d := &Deployer{namespace: opts.Namespace, kubeconfig: opts.Kubeconfig, connect: opts.Connect}
	if opts.Client != nil {
		d.connect = func() (Connection, error) { return Connection{Client: opts.Client}, nil }
	}
	if d.namespace == "" {
		d.namespace = "default"
	}
	return d
}

// HandsOff implements deployer.HandsOff: every item goes to a deployer in
// the cluster, so this side measures the item's pickup timeout and its
// progressing timeout from the pickup (job.wait), and bounds its other
// waits by the progressing timeout (waitGone).
func (d *Deployer) HandsOff(deployer.Item) bool { return true }

// connected connects once (Options.Connect) and sets d.client.
func (d *Deployer) connected() (Connection, error) {
	d.once.Do(func() {
		if d.connect == nil {
			d.connErr = errors.New("the external deployer has no cluster configured")
			return
		}
		d.conn, d.connErr = d.connect()
		d.client = d.conn.Client
	})
	return d.conn, d.connErr
}

// ready connects; the error names the item.
func (d *Deployer) ready(item deployer.Item) error {
	if _, err := d.connected(); err != nil {
		return itemError(item, fmt.Errorf("the cluster of the DeployItems: %w", err))
	}
	return nil
}

// Home implements deployer.Homed: the cluster of the DeployItems.
func (d *Deployer) Home(item deployer.Item) (*api.Target, error) {
	c, err := d.connected()
	if err != nil {
		return nil, itemError(item, fmt.Errorf("the cluster of the DeployItems: %w", err))
	}
	return c.Home, nil
}

// Homes implements deployer.Homed.
func (d *Deployer) Homes() []api.Target {
	if c, err := d.connected(); err == nil && c.Home != nil {
		return []api.Target{*c.Home}
	}
	return nil
}

// where returns where item's objects are: where its provider status
// says, else in the configured namespace. A status rebuilt from an
// inventory (deployer.Item.Rebuilt) is not followed elsewhere: whoever
// could write that inventory could point it anywhere — except to a
// DeployItem adopted from Landscaper that carries the item's owner label
// (this side wrote it, so it is the item's wherever it is).
func (d *Deployer) where(ctx context.Context, item deployer.Item, prev *ProviderStatus) (names, error) {
	derived := names{namespace: d.namespace, object: nameFor(item.ID)}
	if prev == nil || prev.Namespace == "" || prev.Name == "" {
		return derived, nil
	}
	recorded := names{namespace: prev.Namespace, object: prev.Name}
	if !item.Rebuilt {
		return recorded, nil
	}
	if !prev.Adopted || recorded == derived {
		return derived, nil
	}
	live, err := get(ctx, d.client.Resource(DeployItems).Namespace(recorded.namespace), recorded.object)
	if err != nil {
		return names{}, fmt.Errorf("reading DeployItem %s/%s: %w", recorded.namespace, recorded.object, err)
	}
	if live != nil && ownershipOf(live, item) != foreign {
		return recorded, nil
	}
	return derived, nil
}

// Apply implements deployer.Deployer: it writes the item's Target,
// Context and DeployItem, starts a job and waits until the deployer
// finished it. The provider status names the objects as soon as they may
// exist, also on error.
func (d *Deployer) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	keep := deployer.Result{ProviderStatus: item.ProviderStatus}
	if err := d.ready(item); err != nil {
		return keep, err
	}
	config, err := parseConfig(item.Config)
	if err != nil {
		return keep, itemError(item, err)
	}
	prev, err := decodeStatus(item.ProviderStatus)
	if err != nil {
		return keep, itemError(item, failure.NewTerminal("InvalidProviderStatus", err))
	}
	old, err := d.where(ctx, item, prev)
	if err != nil {
		return keep, itemError(item, err)
	}
	n := names{namespace: d.namespace, object: nameFor(item.ID)}
	takeOver := landscapersUID(item, prev)
	if prev != nil && prev.Adopted {
		n = old // Landscaper's DeployItem stays where it is (ProviderStatus.Adopted)
	}
	if old != n {
		// The objects were written elsewhere (the namespace setting
		// changed): uninstall them there first, so nothing is left behind.
		if err := d.deleteAt(ctx, item, old, false, takeOver); err != nil {
			return keep, itemError(item, fmt.Errorf("moving the DeployItem from %s to %s: %w", old.namespace, n.namespace, err))
		}
	}
	status := newStatus(n, item)
	status.Adopted = prev != nil && prev.Adopted
	res := d.client.Resource(DeployItems).Namespace(n.namespace)
	obj := deployItemObject(item, n, config, time.Now())
	live, err := claim(ctx, res, item, obj, takeOver)
	if err != nil {
		return keep, itemError(item, err)
	}
	if live != nil && live.GetDeletionTimestamp() != nil {
		// A deletion that did not finish (an interrupted destroy): end it
		// through the deployer, then start over.
		if err := d.finishDeletion(ctx, item, res, live); err != nil {
			status.observe(live)
			return status.result(), itemError(item, fmt.Errorf("%s is being deleted and its deletion did not finish: %w", describe(live), err))
		}
		live = nil // gone now
	}
	if err := d.applySupport(ctx, item, n); err != nil {
		return status.result(), itemError(item, err)
	}
	written, err := put(ctx, res, item, obj, live, takeOver)
	if err != nil {
		return status.result(), itemError(item, err)
	}
	status.observe(written)
	out, err := d.runJob(ctx, res, written, item)
	if out.obj != nil {
		status.observe(out.obj)
	}
	if err == nil && out.gone {
		err = fmt.Errorf("%s was deleted while its job ran", describe(written))
	}
	if err != nil {
		return status.result(), itemError(item, err)
	}
	exports, err := d.result(ctx, out.obj)
	done := status.result()
	done.Exports = exports
	return done, itemError(item, err)
}

// applySupport writes the Target (if the item names one, with the Secret
// of its kubeconfig when the provider block holds it) and the Context the
// DeployItem references, at the same time.
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
		if fromProvider(item.Target) {
			kubeconfig, err := d.providerKubeconfig(item.Target)
			if err != nil {
				return err
			}
			objs = append(objs, objectWrite{res: d.client.Resource(secrets).Namespace(n.namespace), obj: kubeconfigSecretObject(item, n, kubeconfig)})
		}
	}
	objs = append(objs, objectWrite{res: d.client.Resource(Contexts).Namespace(n.namespace), obj: contextObject(item, n, item.Context)})
	errs := make(chan error, len(objs))
	for _, w := range objs {
		go func() {
			live, err := claim(ctx, w.res, item, w.obj, "")
			if err == nil {
				_, err = put(ctx, w.res, item, w.obj, live, "")
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

// providerKubeconfig is the provider block's kubeconfig of t.
func (d *Deployer) providerKubeconfig(t *api.Target) (string, error) {
	if d.kubeconfig == nil {
		return "", failure.Terminalf("TargetNotHandedOut",
			"target %q takes its kubeconfig from the provider block, and this deployer was given no way to read it", t.Metadata.Name)
	}
	kubeconfig, ok, err := d.kubeconfig(t)
	switch {
	case err != nil:
		return "", err
	case !ok:
		return "", failure.Terminalf("InvalidTarget", "target %q has no kubeconfig of the provider block", t.Metadata.Name)
	}
	return kubeconfig, nil
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
