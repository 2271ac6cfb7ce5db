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
			errs = append(errs, fmt.Errorf("%s: %w", itemLabel(it), err))
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
			out = append(out, itemLabel(it)+": "+w)
		}
	}
	return out
}

// itemLabel names a rendered item in messages: its installation, the
// deploy execution and the blueprint file of its template, and the item,
// e.g. `installation root: deploy execution "main" (deploy.yaml): deploy
// item "app"`.
func itemLabel(it RenderedItem) string {
	source := it.Source
	if source == "" {
		source = "inline template"
	}
	return fmt.Sprintf("installation %s: deploy execution %q (%s): deploy item %q", it.Installation, it.Execution, source, it.Name)
}

// registry is Deployers, or an empty registry in which every type is
// unknown (an error per item, never a panic).
func (e *Engine) registry() *deployer.Registry {
	if e.Deployers == nil {
		return deployer.NewRegistry()
	}
	return e.Deployers
}
