package deployer

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// Warner is implemented by a deployer whose configurations may hold
// fields it accepts but does not honour the way Landscaper's deployer
// does (continuousReconcile, say). The engine calls it at plan time for
// every rendered item, so the plan says what happens instead of staying
// silent.
type Warner interface {
	// ConfigWarnings returns one message per such field of config, for
	// the user; nil when there is none. Config has passed Validate.
	ConfigWarnings(config json.RawMessage) []string
}

// Warnings returns what the deployer of itemType has to say about config;
// nil for an unknown type or a deployer without warnings.
func (r *Registry) Warnings(itemType string, config json.RawMessage) []string {
	d, ok := r.byType[itemType]
	if !ok {
		return nil
	}
	if w, ok := d.(Warner); ok {
		return w.ConfigWarnings(config)
	}
	return nil
}

// ContinuousReconcileWarning is what the manifest and Helm deployers say
// about a configuration's continuousReconcile: the provider has no
// controller that reconciles on a schedule.
const ContinuousReconcileWarning = "continuousReconcile is ignored: the provider deploys only during terraform apply, " +
	"there is no controller to reconcile on a schedule. Instead, every plan and refresh checks what the item " +
	"deployed for drift (deploy_item_errors shows \"Drifted: …\") and the next apply repairs it; run terraform " +
	"plan/apply on a schedule for a periodic reconcile"

// ConfigFieldWarnings is the ConfigWarnings of a deployer that decodes
// its configurations leniently, as Landscaper does, and accepts
// Landscaper's continuousReconcile (manifest, Helm): one warning per field
// of config that the shape shapeOf gives for the configuration's
// apiVersion does not declare, naming its path below "config", so a
// misspelt or newer field is never dropped without a word; and the
// ContinuousReconcileWarning when config sets continuousReconcile. what
// names the configuration ("the manifest deployer's configuration").
// config is decoded once: the plan asks this of every rendered item.
func ConfigFieldWarnings(config json.RawMessage, shapeOf func(apiVersion string) reflect.Type, what string) []string {
	var generic any
	if api.DecodeExact(config, &generic) != nil {
		// Validate reports a configuration that does not decode; the
		// lenient decoder may still find continuousReconcile in it.
		return continuousReconcileWarnings(config)
	}
	obj, _ := generic.(map[string]any)
	version, _ := field(obj, "apiVersion").(string)
	var out []string
	for _, w := range api.UnknownFields(generic, shapeOf(version), "config") {
		path := strings.TrimSuffix(w, ": unknown field")
		out = append(out, path+": unknown field of "+what+", ignored: neither Landscaper's deployer nor the provider reads it")
	}
	if field(obj, "continuousReconcile") != nil {
		out = append(out, ContinuousReconcileWarning)
	}
	return out
}

// field is obj's value for name as encoding/json finds a struct field's:
// the exact key, else one equal to it under case folding.
func field(obj map[string]any, name string) any {
	if v, ok := obj[name]; ok {
		return v
	}
	for k, v := range obj {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return nil
}

// continuousReconcileWarnings is the ContinuousReconcileWarning when the
// lenient decoder finds continuousReconcile set in config.
func continuousReconcileWarnings(config json.RawMessage) []string {
	var cfg struct {
		ContinuousReconcile json.RawMessage `json:"continuousReconcile"`
	}
	if json.Unmarshal(config, &cfg) != nil || len(cfg.ContinuousReconcile) == 0 || string(cfg.ContinuousReconcile) == "null" {
		return nil
	}
	return []string{ContinuousReconcileWarning}
}

// TargetNamer is implemented by a deployer whose configurations may name
// other targets of the installation than the item's own (Landscaper's
// targetName). The engine checks at plan time that each is one of the
// installation's target imports, and hands them to every call
// (Item.Targets).
type TargetNamer interface {
	// TargetNames returns the names config uses, each once; nil for none.
	// Config has passed Validate.
	TargetNames(config json.RawMessage) []string
}

// TargetNames returns the other targets config of itemType names; nil for
// an unknown type or a deployer that names none.
func (r *Registry) TargetNames(itemType string, config json.RawMessage) []string {
	if d, ok := r.byType[itemType].(TargetNamer); ok {
		return d.TargetNames(config)
	}
	return nil
}
