package deployer

import (
	"encoding/json"
	"fmt"
	"sort"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// Registry finds the deployer for a deploy item type. It is filled once at
// start-up and only read afterwards, so it needs no locking.
type Registry struct {
	byType map[string]Deployer
	// declared are the deployers as registered, which Wrap leaves alone:
	// what a deployer declares (HandsOff …) is asked of them.
	declared map[string]Deployer
	// unknownHint ends the error of an unknown type: how to serve it.
	unknownHint string
}

// SetUnknownTypeHint makes hint the last sentence of the error for an
// item of a type no deployer serves, telling how to serve it.
func (r *Registry) SetUnknownTypeHint(hint string) { r.unknownHint = hint }

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byType: map[string]Deployer{}, declared: map[string]Deployer{}}
}

// Register makes d responsible for deploy items of itemType. Registering a
// type twice is a programming error and panics at start-up.
func (r *Registry) Register(itemType string, d Deployer) {
	if _, dup := r.byType[itemType]; dup {
		panic(fmt.Sprintf("deployer: type %q registered twice", itemType))
	}
	r.byType[itemType], r.declared[itemType] = d, d
}

// Replace makes d responsible for deploy items of itemType instead of
// the deployer registered for it, if any (at start-up: the provider puts
// the router of a type it hands to external deployers in front of the
// built-in one).
func (r *Registry) Replace(itemType string, d Deployer) {
	r.byType[itemType], r.declared[itemType] = d, d
}

// HandsOff reports whether the registered deployer of item's type hands
// item off to another process (HandsOff), and so measures its pickup and
// progressing timeouts itself; false for an unknown type.
func (r *Registry) HandsOff(item Item) bool {
	h, ok := r.declared[item.Type].(HandsOff)
	return ok && h.HandsOff(item)
}

// Lookup returns the deployer for itemType. An unknown type is a terminal
// error that names the type and the known ones.
func (r *Registry) Lookup(itemType string) (Deployer, error) {
	if d, ok := r.byType[itemType]; ok {
		return d, nil
	}
	hint := ""
	if r.unknownHint != "" {
		hint = "; " + r.unknownHint
	}
	return nil, failure.Terminalf("UnknownDeployItemType",
		"no deployer for deploy item type %q (known types: %v)%s", itemType, r.Types(), hint)
}

// Validate checks a deploy item's configuration with the parser of the
// deployer of itemType: an unknown type and a configuration that deployer
// would reject are both terminal errors.
// A panicking parser is an error of the configuration, not of the caller.
func (r *Registry) Validate(itemType string, config json.RawMessage) (err error) {
	d, err := r.Lookup(itemType)
	if err != nil {
		return err
	}
	defer func() {
		if p := recover(); p != nil {
			err = failure.FromPanic("the configuration parser of "+itemType, p)
		}
	}()
	if err := d.Validate(config); err != nil && !failure.IsTerminal(err) {
		return failure.NewTerminal("InvalidConfig", err)
	} else if err != nil {
		return err
	}
	return nil
}

// Types returns the registered types, sorted.
func (r *Registry) Types() []string {
	types := make([]string, 0, len(r.byType))
	for t := range r.byType {
		types = append(types, t)
	}
	sort.Strings(types)
	return types
}

// Served names each registered type with the Go type of the deployer
// serving it ("helm=*helm.Deployer"), sorted: what the plan-time checks of
// rendered items depend on, so a plan that reuses an apply's rendering
// (shared.RenderKey) does not outlive a change of who serves a type.
func (r *Registry) Served() []string {
	out := make([]string, 0, len(r.byType))
	for t, d := range r.byType {
		out = append(out, fmt.Sprintf("%s=%T", t, d))
	}
	sort.Strings(out)
	return out
}
