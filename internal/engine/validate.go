package engine

import (
	"errors"
	"fmt"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// checkItems validates every rendered item with its deployer's parser.
func (e *Engine) checkItems(items []RenderedItem) error {
	reg := e.registry()
	var errs []error
	for _, it := range items {
		if err := reg.Validate(it.Type, it.Config); err != nil {
			errs = append(errs, fmt.Errorf("installation %s: deploy execution %q: deploy item %q: %w", it.Installation, it.Execution, it.Name, err))
		}
	}
	return errors.Join(errs...)
}

// itemWarnings are the deployers' warnings about the rendered items'
// configurations (deployer.Warner), each naming its item.
func (e *Engine) itemWarnings(items []RenderedItem) []string {
	reg := e.registry()
	var out []string
	for _, it := range items {
		for _, w := range reg.Warnings(it.Type, it.Config) {
			out = append(out, fmt.Sprintf("installation %s: deploy execution %q: deploy item %q: %s", it.Installation, it.Execution, it.Name, w))
		}
	}
	return out
}

// registry is Deployers, or an empty registry in which every type is
// unknown (an error per item, never a panic).
func (e *Engine) registry() *deployer.Registry {
	if e.Deployers == nil {
		return deployer.NewRegistry()
	}
	return e.Deployers
}
