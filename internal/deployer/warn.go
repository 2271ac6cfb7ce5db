package deployer

import "encoding/json"

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

// HasValue reports whether a raw JSON field is set to something other
// than null.
func HasValue(raw json.RawMessage) bool {
	return len(raw) > 0 && string(raw) != "null"
}
