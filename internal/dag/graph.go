// Package dag is the pure part of the deploy-item and sibling ordering:
// validating a dependency graph (duplicate names, unknown dependencies,
// cycles named as "a -> b -> c -> a") and classifying its nodes into the
// classes A–E (ARCHITECTURE.md) to decide what to trigger next. It knows nothing
// about deployers, phases or time, so every rule is a table test.
package dag

import (
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Node is one vertex: a name unique in its graph and the names it depends on.
type Node struct {
	Name      string
	DependsOn []string
}

// Validate rejects empty and duplicate names, dependencies on names that do
// not exist and cycles. kind ("deploy item", "subinstallation") appears in
// the messages. All problems are reported, joined, in a stable order.
func Validate(kind string, nodes []Node) error {
	var errs []error
	seen := make(map[string]bool, len(nodes))
	for i, n := range nodes {
		switch {
		case n.Name == "":
			errs = append(errs, fmt.Errorf("%s #%d: name must be set", kind, i))
		case seen[n.Name]:
			errs = append(errs, fmt.Errorf("%s %q: duplicate name", kind, n.Name))
		}
		seen[n.Name] = true
	}
	for _, n := range nodes {
		for _, d := range n.DependsOn {
			if !seen[d] {
				errs = append(errs, fmt.Errorf("%s %q: dependsOn %q is not a %s of this blueprint", kind, n.Name, d, kind))
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	if cycle := FindCycle(nodes); cycle != nil {
		return fmt.Errorf("%ss depend on each other in a cycle: %s", kind, strings.Join(cycle, " -> "))
	}
	return nil
}

// FindCycle returns one cycle as a path whose first and last element are
// the same name ("a", "b", "a"), or nil. Nodes are visited in name order so
// the reported cycle is the same on every run. Unknown dependencies are
// ignored (Validate reports them).
func FindCycle(nodes []Node) []string {
	deps := make(map[string][]string, len(nodes))
	names := make([]string, 0, len(nodes))
	for _, n := range nodes {
		if _, dup := deps[n.Name]; !dup {
			names = append(names, n.Name)
		}
		deps[n.Name] = append(deps[n.Name], n.DependsOn...)
	}
	sort.Strings(names)
	const (
		unvisited = iota
		onStack
		done
	)
	state := make(map[string]int, len(nodes))
	var stack []string
	var visit func(string) []string
	visit = func(name string) []string {
		state[name] = onStack
		stack = append(stack, name)
		for _, d := range deps[name] {
			if _, known := deps[d]; !known {
				continue
			}
			switch state[d] {
			case onStack:
				start := len(stack) - 1
				for stack[start] != d {
					start--
				}
				return append(append([]string{}, stack[start:]...), d)
			case unvisited:
				if c := visit(d); c != nil {
					return c
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[name] = done
		return nil
	}
	for _, n := range names {
		if state[n] == unvisited {
			if c := visit(n); c != nil {
				return c
			}
		}
	}
	return nil
}

// Order returns the node indices in a topological order (every node after
// the nodes it depends on), keeping the input order among independent
// nodes. Nodes on a cycle come last, in input order.
func Order(nodes []Node) []int {
	g := Compile(nodes)
	pending := make([]int, len(nodes))
	for i := range nodes {
		pending[i] = len(g.preds[i])
	}
	order := make([]int, 0, len(nodes))
	placed := make([]bool, len(nodes))
	for progress := true; progress; {
		progress = false
		for i := range nodes {
			if placed[i] || pending[i] > 0 {
				continue
			}
			placed[i], progress = true, true
			order = append(order, i)
			for _, s := range g.succs[i] {
				pending[s]--
			}
		}
	}
	for i := range nodes {
		if !placed[i] {
			order = append(order, i)
		}
	}
	return order
}
