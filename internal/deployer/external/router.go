package external

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// TargetSelector picks deploy items by their target, as Landscaper's
// deployers pick theirs (fenced environments): by the target's name and
// labels. The zero selector picks every item, also one without a target.
type TargetSelector struct {
	// Names: the target's name is one of them (any name when empty).
	Names []string
	// Labels: the target carries every one of them with its value.
	Labels map[string]string
}

// Empty reports whether s picks every item.
func (s TargetSelector) Empty() bool { return len(s.Names) == 0 && len(s.Labels) == 0 }

// Matches reports whether s picks an item with target t (nil: none).
func (s TargetSelector) Matches(t *api.Target) bool {
	if s.Empty() {
		return true
	}
	if t == nil || (len(s.Names) > 0 && !slices.Contains(s.Names, t.Metadata.Name)) {
		return false
	}
	for k, v := range s.Labels {
		if have, ok := t.Metadata.Labels[k]; !ok || have != v {
			return false
		}
	}
	return true
}

// Route hands the items its selector picks to its deployer.
type Route struct {
	Select   TargetSelector
	Deployer *Deployer
}

// Router serves one deploy item type through external deployers and,
// when the type is built in, the built-in deployer: an item goes to the
// first route whose selector picks its target, else to the built-in one.
// What an item deployed is deleted and checked by the deployer that
// deployed it — the one whose provider status it holds — so an item
// whose route changed is first removed by its old deployer, then
// deployed by the new one.
type Router struct {
	itemType string
	builtin  deployer.Deployer // nil: the type is not built in
	routes   []Route
}

var (
	_ deployer.Deployer  = (*Router)(nil)
	_ deployer.Homed     = (*Router)(nil)
	_ deployer.Previewer = (*Router)(nil)
	_ deployer.HandsOff  = (*Router)(nil)
	_ deployer.Adopter   = (*Router)(nil)
)

// NewRouter returns the router of itemType over routes, in order, and
// builtin (nil when the type is not built in).
func NewRouter(itemType string, builtin deployer.Deployer, routes ...Route) *Router {
	return &Router{itemType: itemType, builtin: builtin, routes: routes}
}

// pick is the deployer an item goes to now.
func (r *Router) pick(item deployer.Item) (deployer.Deployer, error) {
	for _, route := range r.routes {
		if route.Select.Matches(item.Target) {
			return route.Deployer, nil
		}
	}
	if r.builtin != nil {
		return r.builtin, nil
	}
	target := "no target"
	if item.Target != nil {
		target = fmt.Sprintf("target %q", item.Target.Metadata.Name)
	}
	return nil, failure.Terminalf("NoDeployerSelected",
		"deploy item %q of type %q has %s, which the target selector of no external deployer of the type picks, and the type is not built in", item.Name, r.itemType, target)
}

// owner is the deployer that deployed what item's provider status
// records; pick's when it records nothing.
func (r *Router) owner(item deployer.Item) (deployer.Deployer, error) {
	if len(item.ProviderStatus) == 0 || string(item.ProviderStatus) == "null" {
		return r.pick(item)
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Namespace  string `json:"namespace"`
		// Adopted: the namespace is Landscaper's, not a route's.
		Adopted bool `json:"adopted"`
	}
	if json.Unmarshal(item.ProviderStatus, &head) != nil || head.APIVersion != StatusAPIVersion {
		if r.builtin != nil {
			return r.builtin, nil
		}
		return r.pick(item) // its decoding error tells
	}
	if d, err := r.pick(item); err == nil {
		if e, ok := d.(*Deployer); ok && (e.namespace == head.Namespace || head.Adopted) {
			return e, nil
		}
	}
	for _, route := range r.routes {
		if route.Deployer.namespace == head.Namespace {
			return route.Deployer, nil
		}
	}
	return r.routes[0].Deployer, nil // it finds its objects where the status says
}

// HandsOff implements deployer.HandsOff: true when both the deployer the
// item goes to and the one that deployed it are external, so every wait
// of its calls is this package's. An item moving between the built-in
// deployer and an external one is bounded by the engine, as built-in
// items are.
func (r *Router) HandsOff(item deployer.Item) bool {
	to, err := r.pick(item)
	if err != nil {
		return false
	}
	from, err := r.owner(item)
	_, toExternal := to.(*Deployer)
	_, fromExternal := from.(*Deployer)
	return err == nil && toExternal && fromExternal
}

// Apply implements deployer.Deployer. An item that moves between the
// built-in deployer and an external one (or between two external ones)
// is deleted by the old one first.
func (r *Router) Apply(ctx context.Context, item deployer.Item) (deployer.Result, error) {
	to, err := r.pick(item)
	if err != nil {
		return deployer.Result{ProviderStatus: item.ProviderStatus}, err
	}
	from, err := r.owner(item)
	if err == nil && from != to {
		if err := from.Delete(ctx, item, deployer.DeleteOptions{}); err != nil {
			return deployer.Result{ProviderStatus: item.ProviderStatus},
				fmt.Errorf("deploy item %q goes to another deployer now; removing it from the previous one: %w", item.Name, err)
		}
		item.ProviderStatus = nil
	}
	return to.Apply(ctx, item)
}

// Delete implements deployer.Deployer through the deployer that deployed
// the item.
func (r *Router) Delete(ctx context.Context, item deployer.Item, opts deployer.DeleteOptions) error {
	d, err := r.owner(item)
	if err != nil {
		return err
	}
	return d.Delete(ctx, item, opts)
}

// Drift implements deployer.Deployer through the deployer that deployed
// the item.
func (r *Router) Drift(ctx context.Context, item deployer.Item) (deployer.DriftReport, error) {
	d, err := r.owner(item)
	if err != nil {
		return deployer.DriftReport{}, err
	}
	return d.Drift(ctx, item)
}

// Validate implements deployer.Deployer: with the built-in deployer's
// parser when the type is built in (the same configuration may go to
// either), else as an external deployer's configuration.
func (r *Router) Validate(config json.RawMessage) error {
	if r.builtin != nil {
		return r.builtin.Validate(config)
	}
	return r.routes[0].Deployer.Validate(config)
}

// Home implements deployer.Homed: the home of the external deployer the
// item goes to (that it was with when it goes nowhere now); nil for the
// built-in one. (An item whose route changed is recorded where it goes;
// the record of its previous deployer's cluster stays until a lost state
// finds it, whose deletion then finds nothing.)
func (r *Router) Home(item deployer.Item) (*api.Target, error) {
	d, err := r.pick(item)
	if err != nil {
		d, err = r.owner(item)
	}
	if e, ok := d.(*Deployer); ok && err == nil {
		return e.Home(item)
	}
	return nil, nil
}

// Homes implements deployer.Homed.
func (r *Router) Homes() []api.Target {
	var out []api.Target
	for _, route := range r.routes {
		out = append(out, route.Deployer.Homes()...)
	}
	return out
}

// Preview implements deployer.Previewer: the built-in deployer's preview
// for an item it deploys, else the item's configuration as a DeployItem
// (deployer.ConfigObject), the one thing an external deployer's item is
// known by before it runs.
func (r *Router) Preview(ctx context.Context, req deployer.PreviewRequest) (deployer.Preview, error) {
	pick := r.owner // the plan may not know the target: where it is now
	if req.Item.Target != nil {
		pick = r.pick
	}
	d, err := pick(req.Item)
	if err != nil {
		return deployer.Preview{}, err
	}
	if p, ok := d.(deployer.Previewer); ok {
		return p.Preview(ctx, req)
	}
	obj, err := deployer.ConfigObject(req.Item.Name, req.Item.Type, req.Item.Config)
	if err != nil {
		return deployer.Preview{}, err
	}
	return deployer.Preview{Objects: []deployer.PreviewObject{obj}}, nil
}

// Adopt implements deployer.Adopter through the deployer the item goes
// to: an external one takes Landscaper's DeployItem over, the built-in
// one adopts as it does without external deployers (if it can).
func (r *Router) Adopt(ctx context.Context, item deployer.Item, from deployer.Landscaped) (json.RawMessage, error) {
	d, err := r.pick(item)
	if err != nil {
		return nil, err
	}
	a, ok := d.(deployer.Adopter)
	if !ok {
		return nil, failure.Terminalf("AdoptUnsupported",
			"deploy item %q of type %s goes to the built-in deployer, which cannot take over what Landscaper's deployer deployed; "+
				"route it to an external deployer (external_deployers) or keep the installation in Landscaper", item.Name, item.Type)
	}
	return a.Adopt(ctx, item, from)
}
