package deployer

import "encoding/json"

// PredictedExports are a deploy item's exports as far as a plan can know
// them: Known holds the values that follow from the objects the item
// renders, Unknown the keys whose values only the cluster decides (a
// generated name, a status, an allocated IP, a field the rendered object
// does not set). Every key the item exports is in exactly one of them.
type PredictedExports struct {
	Known   map[string]any
	Unknown []string
}

// ExportPredictor is a Previewer that can also say at plan what an item's
// exports will be (the provider's `exports` known at plan). A value it
// calls known MUST be what Apply reads afterwards from the cluster —
// Terraform fails the apply as an inconsistent result otherwise — so a
// predictor leaves unknown whatever the API server may store differently
// from the rendered object.
type ExportPredictor interface {
	Previewer
	// PredictExports answers for config from the objects Preview
	// returned (rendered) and, with plan_diff = "server", those the
	// dry-run returned (server; nil without one). It reads no cluster. An
	// error leaves every export of the item unknown.
	PredictExports(config json.RawMessage, rendered, server []PreviewObject) (PredictedExports, error)
}

// ExportPredictor returns the deployer of itemType when it implements
// ExportPredictor.
func (r *Registry) ExportPredictor(itemType string) (ExportPredictor, bool) {
	p, ok := r.byType[itemType].(ExportPredictor)
	return p, ok
}
