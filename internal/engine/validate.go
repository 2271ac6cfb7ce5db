package engine

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/execution"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/installation"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// checkItems validates every rendered item with its deployer's parser,
// and that every other target its configuration names (Landscaper's
// targetName) is one of its installation's target imports.
func (e *Engine) checkItems(tree *RenderedTree, refs snapshot.ProviderRefs) error {
	reg := e.registry()
	installations := map[string]installation.RenderedInstallation{}
	for _, in := range tree.Installations {
		installations[in.Path] = in
	}
	var errs []error
	for _, it := range tree.Items {
		if err := reg.Validate(it.Type, it.Config); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", itemLabel(it), err))
			continue
		}
		in := installations[it.Installation]
		if t, err := in.Target(it.Target); err == nil { // one that cannot be resolved fails the apply (TargetNotFound)
			if err := execution.CheckTarget(refs, t, it.ID); err != nil {
				errs = append(errs, err)
				continue
			}
		}
		names := reg.TargetNames(it.Type, it.Config)
		if len(names) == 0 {
			continue
		}
		byName, ambiguous := in.TargetsByName()
		for _, name := range names {
			switch {
			case !refs.Allows(byName[name]):
				errs = append(errs, execution.CheckTarget(refs, byName[name], it.ID))
			case slices.Contains(ambiguous, name):
				errs = append(errs, failure.Terminalf("TargetNotFound", "%s: targetName %q is ambiguous: several target imports of the installation are Targets of that name", itemLabel(it), name))
			case byName[name] == nil:
				errs = append(errs, failure.Terminalf("TargetNotFound", "%s: targetName %q is none of the installation's target imports (by their Target's metadata.name%s)",
					itemLabel(it), name, knownNames(byName)))
			}
		}
	}
	return errors.Join(errs...)
}

// knownNames lists the target names for a message: "; known: a, b".
func knownNames(byName map[string]*api.Target) string {
	if len(byName) == 0 {
		return "; it imports none"
	}
	names := make([]string, 0, len(byName))
	for n := range byName {
		names = append(names, n)
	}
	slices.Sort(names)
	return "; known: " + strings.Join(names, ", ")
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
