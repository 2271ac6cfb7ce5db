package blueprint

import (
	"errors"
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// validateDeployItems applies Landscaper's execution validation to the
// rendered items: name and type set, names unique, dependsOn defined and
// acyclic, targets naming a target import of the right kind.
func (b *Blueprint) validateDeployItems(items []api.DeployItemTemplate) error {
	var errs []error
	byName := map[string]api.DeployItemTemplate{}
	for i, it := range items {
		switch {
		case it.Name == "":
			errs = append(errs, fmt.Errorf("deploy item #%d: name must be set", i))
		case byName[it.Name].Name != "":
			errs = append(errs, fmt.Errorf("deploy item %q: duplicate name", it.Name))
		}
		if it.Type == "" {
			errs = append(errs, fmt.Errorf("deploy item %q: type must be set", it.Name))
		}
		if err := b.checkTargetSelector(it); err != nil {
			errs = append(errs, err)
		}
		byName[it.Name] = it
	}
	for _, it := range items {
		for _, dep := range it.DependsOn {
			if _, ok := byName[dep]; !ok {
				errs = append(errs, fmt.Errorf("deploy item %q: dependsOn %q is not a deploy item of this blueprint", it.Name, dep))
			}
		}
	}
	if len(errs) == 0 {
		if cycle := findCycle(items, byName); cycle != nil {
			errs = append(errs, fmt.Errorf("deploy items depend on each other in a cycle: %s", strings.Join(cycle, " -> ")))
		}
	}
	return errors.Join(errs...)
}

// checkTargetSelector makes sure a deploy item's target names a declared
// target import and uses index/key as its kind needs.
func (b *Blueprint) checkTargetSelector(it api.DeployItemTemplate) error {
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
	switch def.Type {
	case ImportTypeTarget:
		if sel.Index != nil || sel.Key != "" {
			return fmt.Errorf("deploy item %q: target import %q is a single target, index/key are not allowed", it.Name, name)
		}
	case ImportTypeTargetList:
		if sel.Index == nil {
			return fmt.Errorf("deploy item %q: target import %q is a targetList, an index is needed", it.Name, name)
		}
	case ImportTypeTargetMap:
		if sel.Key == "" {
			return fmt.Errorf("deploy item %q: target import %q is a targetMap, a key is needed", it.Name, name)
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

// findCycle returns the names along one dependsOn cycle, or nil.
func findCycle(items []api.DeployItemTemplate, byName map[string]api.DeployItemTemplate) []string {
	const (
		unvisited = iota
		onPath
		done
	)
	mark := map[string]int{}
	var path []string
	var visit func(string) []string
	visit = func(n string) []string {
		switch mark[n] {
		case onPath:
			for i, p := range path {
				if p == n {
					return append(append([]string{}, path[i:]...), n)
				}
			}
		case done:
			return nil
		}
		mark[n] = onPath
		path = append(path, n)
		for _, d := range byName[n].DependsOn {
			if c := visit(d); c != nil {
				return c
			}
		}
		path = path[:len(path)-1]
		mark[n] = done
		return nil
	}
	for _, it := range items {
		if c := visit(it.Name); c != nil {
			return c
		}
	}
	return nil
}
