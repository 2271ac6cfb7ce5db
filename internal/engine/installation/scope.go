package installation

import (
	"fmt"
	"sort"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/dag"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// scope is what the subinstallations of one installation can import: the
// parent's imports by import name and the siblings' exports by the dataRef
// / target name they export to. Names are local: the same blueprint
// instantiated twice gets two scopes.
type scope struct {
	data    map[string]any
	targets map[string]api.Target
	lists   map[string][]api.Target
	maps    map[string]map[string]api.Target
}

func newScope(parent blueprint.Imports) *scope {
	s := &scope{data: map[string]any{}, targets: map[string]api.Target{}, lists: parent.TargetLists, maps: parent.TargetMaps}
	for k, v := range parent.Data {
		s.data[k] = v
	}
	for k, v := range parent.Targets {
		s.targets[k] = v
	}
	// Landscaper stores each element of a target list or map import as a
	// target of its own, named `<import>[<index>]` / `<import>[<key>]`,
	// so subinstallations can import one: `target: clusters[eu]`.
	for name, list := range parent.TargetLists {
		for i, t := range list {
			s.targets[fmt.Sprintf("%s[%d]", name, i)] = t
		}
	}
	for name, m := range parent.TargetMaps {
		for key, t := range m {
			s.targets[name+"["+key+"]"] = t
		}
	}
	return s
}

// with returns a copy of the scope plus the exports a sibling published.
func (s *scope) with(published []*snapshot.Installation, templates map[string]api.SubinstallationTemplate) *scope {
	c := &scope{data: map[string]any{}, targets: map[string]api.Target{}, lists: s.lists, maps: s.maps}
	for k, v := range s.data {
		c.data[k] = v
	}
	for k, v := range s.targets {
		c.targets[k] = v
	}
	for _, in := range published {
		c.publish(in, templates[in.Name].Exports)
	}
	return c
}

// publish stores an installation's exports in the scope as its template's
// `exports` say: export Name becomes data object DataRef / target Target.
func (s *scope) publish(in *snapshot.Installation, exports api.InstallationExports) {
	for _, e := range exports.Data {
		if v, ok := in.Exports[e.Name]; ok {
			s.data[e.DataRef] = v
		}
	}
	for _, e := range exports.Targets {
		if t, ok := in.TargetExports[e.Name]; ok {
			t.Metadata.Name = e.Target
			s.targets[e.Target] = t
		}
	}
}

// importsFor builds a subinstallation's imports from the scope. A reference
// the scope does not hold is terminal: nothing in this job can add it.
func (s *scope) importsFor(sub string, imp api.InstallationImports) (blueprint.Imports, error) {
	out := blueprint.Imports{Data: map[string]any{}, Targets: map[string]api.Target{},
		TargetLists: map[string][]api.Target{}, TargetMaps: map[string]map[string]api.Target{}}
	var missing []string
	for _, d := range imp.Data {
		ref := refName(d.DataRef, d.Name)
		if v, ok := s.data[ref]; ok {
			out.Data[d.Name] = v
		} else {
			missing = append(missing, fmt.Sprintf("data import %q (dataRef %q)", d.Name, ref))
		}
	}
	target := func(imp, ref string) (api.Target, bool) {
		t, ok := s.targets[refName(ref, "")]
		if !ok {
			missing = append(missing, fmt.Sprintf("target import %q (target %q)", imp, ref))
		}
		return t, ok
	}
	for _, t := range imp.Targets {
		switch {
		case t.Target != "":
			if v, ok := target(t.Name, t.Target); ok {
				out.Targets[t.Name] = v
			}
		case t.TargetListRef != "":
			if v, ok := s.lists[refName(t.TargetListRef, "")]; ok {
				out.TargetLists[t.Name] = v
			} else {
				missing = append(missing, fmt.Sprintf("target import %q (targetListRef %q)", t.Name, t.TargetListRef))
			}
		case t.TargetMapRef != "":
			if v, ok := s.maps[refName(t.TargetMapRef, "")]; ok {
				out.TargetMaps[t.Name] = v
			} else {
				missing = append(missing, fmt.Sprintf("target import %q (targetMapRef %q)", t.Name, t.TargetMapRef))
			}
		case t.TargetMap != nil:
			m := map[string]api.Target{}
			for k, ref := range t.TargetMap {
				if v, ok := target(t.Name, ref); ok {
					m[k] = v
				}
			}
			out.TargetMaps[t.Name] = m
		default:
			list := []api.Target{}
			for _, ref := range t.Targets {
				if v, ok := target(t.Name, ref); ok {
					list = append(list, v)
				}
			}
			out.TargetLists[t.Name] = list
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return out, failure.Terminalf("ImportNotSatisfied", "subinstallation %s: %s not found in its parent's scope", sub, strings.Join(missing, ", "))
	}
	return out, nil
}

// refName strips Landscaper's "#" prefix of global names: this provider
// has no global objects, so they resolve in the scope like local ones.
func refName(ref, fallback string) string {
	if ref == "" {
		return fallback
	}
	return strings.TrimPrefix(ref, "#")
}

// importRefs are the scope names a subinstallation reads.
func importRefs(imp api.InstallationImports) []string {
	var refs []string
	for _, d := range imp.Data {
		refs = append(refs, refName(d.DataRef, d.Name))
	}
	for _, t := range imp.Targets {
		if t.Target != "" {
			refs = append(refs, refName(t.Target, ""))
		}
		for _, ref := range t.Targets {
			refs = append(refs, refName(ref, ""))
		}
		for _, ref := range t.TargetMap {
			refs = append(refs, refName(ref, ""))
		}
	}
	return refs
}

// exportRefs are the scope names a subinstallation writes.
func exportRefs(exp api.InstallationExports) []string {
	var refs []string
	for _, d := range exp.Data {
		refs = append(refs, d.DataRef)
	}
	for _, t := range exp.Targets {
		refs = append(refs, t.Target)
	}
	return refs
}

// siblingGraph orders siblings by data flow: a sibling depends on the one
// exporting a name it imports. Two siblings exporting the same name and
// cycles are render-time errors.
func siblingGraph(imports, exports map[string][]string, names []string) ([]dag.Node, error) {
	exporter := map[string]string{}
	for _, n := range names {
		for _, ref := range exports[n] {
			if other, dup := exporter[ref]; dup && other != n {
				return nil, fmt.Errorf("subinstallations %q and %q both export %q", other, n, ref)
			}
			exporter[ref] = n
		}
	}
	nodes := make([]dag.Node, 0, len(names))
	for _, n := range names {
		deps := map[string]bool{}
		for _, ref := range imports[n] {
			if e, ok := exporter[ref]; ok {
				deps[e] = true
			}
		}
		node := dag.Node{Name: n}
		for d := range deps {
			node.DependsOn = append(node.DependsOn, d)
		}
		sort.Strings(node.DependsOn)
		nodes = append(nodes, node)
	}
	if err := dag.Validate("subinstallation", nodes); err != nil {
		return nil, err
	}
	return nodes, nil
}
