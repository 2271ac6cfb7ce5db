package blueprint

import (
	"errors"
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/dag"
)

// validateDeployItems applies Landscaper's execution validation to the
// rendered items: type set, no "/" in a name, targets naming a target import of the right
// kind here; names set and unique, dependsOn defined and acyclic by
// dag.Validate, the one validator of dependency graphs.
func (b *Blueprint) validateDeployItems(items []api.DeployItemTemplate, imports map[string]any) error {
	var errs []error
	nodes := make([]dag.Node, len(items))
	for i, it := range items {
		if it.Type == "" {
			errs = append(errs, fmt.Errorf("deploy item %q: type must be set", it.Name))
		}
		if strings.Contains(it.Name, "/") {
			// Landscaper keeps the name in a label value, which cannot hold
			// a "/"; here "/" separates an item's name from its
			// installation's path, which must stay unambiguous.
			errs = append(errs, fmt.Errorf("deploy item %q: a name must not contain \"/\"", it.Name))
		}
		if err := b.checkTargetSelector(it, imports); err != nil {
			errs = append(errs, err)
		}
		nodes[i] = dag.Node{Name: it.Name, DependsOn: it.DependsOn}
	}
	errs = append(errs, dag.Validate("deploy item", nodes))
	return errors.Join(errs...)
}

// checkTargetSelector makes sure a deploy item's target names a declared
// target import that is present, uses index/key as its kind needs, and
// that the index or key exists in the imported list or map (Landscaper
// checks this when it creates the execution: "index 5 out of bounds").
func (b *Blueprint) checkTargetSelector(it api.DeployItemTemplate, imports map[string]any) error {
	sel := it.Target
	if sel == nil {
		return nil
	}
	name := sel.Import
	if name == "" {
		// The legacy `name` form references a Target object directly.
		return nil
	}
	def, ok := findImport(b.Imports, name)
	if !ok {
		return fmt.Errorf("deploy item %q: target import %q is not declared by the blueprint", it.Name, name)
	}
	value, present := imports[name]
	if !present && (def.Type == ImportTypeTarget || def.Type == ImportTypeTargetList || def.Type == ImportTypeTargetMap) {
		return fmt.Errorf("deploy item %q: target import %q is optional and not set", it.Name, name)
	}
	switch def.Type {
	case ImportTypeTarget:
		if sel.Index != nil || sel.Key != "" {
			return fmt.Errorf("deploy item %q: target import %q is a single target, index/key are not allowed", it.Name, name)
		}
	case ImportTypeTargetList:
		if sel.Index == nil {
			return fmt.Errorf("deploy item %q: target import %q is a targetList, an index is needed", it.Name, name)
		}
		if list, _ := value.([]any); *sel.Index < 0 || *sel.Index >= len(list) {
			return fmt.Errorf("deploy item %q: index %d out of bounds of targetList import %q (%d targets)", it.Name, *sel.Index, name, len(list))
		}
	case ImportTypeTargetMap:
		if sel.Key == "" {
			return fmt.Errorf("deploy item %q: target import %q is a targetMap, a key is needed", it.Name, name)
		}
		if m, _ := value.(map[string]any); m[sel.Key] == nil {
			return fmt.Errorf("deploy item %q: key %q not found in targetMap import %q", it.Name, sel.Key, name)
		}
	default:
		return fmt.Errorf("deploy item %q: import %q is not a target import", it.Name, name)
	}
	return nil
}

func findImport(defs []ImportDefinition, name string) (ImportDefinition, bool) {
	for _, d := range defs {
		if d.Name == name {
			return d, true
		}
		if c, ok := findImport(d.Imports, name); ok {
			return c, true
		}
	}
	return ImportDefinition{}, false
}
