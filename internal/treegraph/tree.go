// Package treegraph draws an installation tree (issue 24): installations,
// their executions and deploy items (with type and target), the items'
// dependsOn edges and the data flowing between sibling installations, as
// Mermaid text (which GitHub, GitLab and the Terraform docs render) and as
// Graphviz DOT. The output is stable: the same tree gives the same bytes.
package treegraph

import (
	"fmt"
	"sort"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
)

// Tree is what a picture shows.
type Tree struct {
	Root *Installation
	// Flows are data flowing between sibling installations: one exports
	// what the other imports.
	Flows []Flow
}

// Installation is one installation of the tree.
type Installation struct {
	Path, Name string
	// Pending says why the installation's deploy items are known only
	// after apply; "" when it rendered.
	Pending          string
	Executions       []*Execution    // by name
	Subinstallations []*Installation // by name
}

// Execution is one deploy execution of an installation.
type Execution struct {
	Name  string
	Items []*Item // by name
}

// Item is one deploy item.
type Item struct {
	ID, Name string
	Type     string
	// Target is the target import it deploys to ("cluster",
	// "clusters[0]"); "" for none.
	Target string
	// DependsOn are the IDs of the items it waits for.
	DependsOn []string
}

// Flow is data flowing from one installation to a sibling.
type Flow struct {
	From, To string // installation paths
	Names    []string
}

// FromRendered builds the tree of root (the root installation's path)
// from what the engine rendered: every installation it lists (with the
// names each reads from and writes to its parent's scope, which give the
// data flow between siblings) and every deploy item.
func FromRendered(root string, rendered *engine.RenderedTree) *Tree {
	b := &builder{byPath: map[string]*Installation{}}
	b.installation(root)
	refs := make(map[string]engine.RenderedInstallation, len(rendered.Installations))
	for _, in := range rendered.Installations {
		b.installation(in.Path).Pending = in.Pending
		refs[in.Path] = in
	}
	for _, u := range rendered.Unknown {
		b.installation(u.Path).Pending = u.Reason
	}
	for _, it := range rendered.Items {
		in := b.installation(it.Installation)
		ex := b.execution(in, it.Execution)
		item := &Item{ID: it.ID, Name: it.Name, Type: it.Type, Target: it.Target.Expression()}
		for _, d := range it.DependsOn {
			item.DependsOn = append(item.DependsOn, it.Installation+"/"+d)
		}
		sort.Strings(item.DependsOn)
		ex.Items = append(ex.Items, item)
	}
	b.sort(b.byPath[root])
	return &Tree{Root: b.byPath[root], Flows: flows(b.byPath, refs)}
}

type builder struct {
	byPath map[string]*Installation
}

// installation returns the installation at path, creating it and its
// ancestors as needed.
func (b *builder) installation(path string) *Installation {
	if in, ok := b.byPath[path]; ok {
		return in
	}
	in := &Installation{Path: path, Name: path[strings.LastIndex(path, "/")+1:]}
	b.byPath[path] = in
	if i := strings.LastIndex(path, "/"); i >= 0 {
		parent := b.installation(path[:i])
		parent.Subinstallations = append(parent.Subinstallations, in)
	}
	return in
}

func (b *builder) execution(in *Installation, name string) *Execution {
	for _, ex := range in.Executions {
		if ex.Name == name {
			return ex
		}
	}
	ex := &Execution{Name: name}
	in.Executions = append(in.Executions, ex)
	return ex
}

func (b *builder) sort(in *Installation) {
	if in == nil {
		return
	}
	sort.Slice(in.Executions, func(i, j int) bool { return in.Executions[i].Name < in.Executions[j].Name })
	for _, ex := range in.Executions {
		sort.Slice(ex.Items, func(i, j int) bool { return ex.Items[i].Name < ex.Items[j].Name })
	}
	sort.Slice(in.Subinstallations, func(i, j int) bool { return in.Subinstallations[i].Name < in.Subinstallations[j].Name })
	for _, sub := range in.Subinstallations {
		b.sort(sub)
	}
}

// flows pairs, among the subinstallations of each installation, who
// exports a name with who imports it.
func flows(byPath map[string]*Installation, refs map[string]engine.RenderedInstallation) []Flow {
	var out []Flow
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		subs := byPath[p].Subinstallations
		for _, from := range subs {
			exported := map[string]bool{}
			for _, e := range refs[from.Path].ExportRefs {
				exported[e] = true
			}
			for _, to := range subs {
				var names []string
				for _, i := range refs[to.Path].ImportRefs {
					if exported[i] && to != from {
						names = append(names, i)
					}
				}
				if len(names) > 0 {
					sort.Strings(names)
					out = append(out, Flow{From: from.Path, To: to.Path, Names: names})
				}
			}
		}
	}
	return out
}

// shortType drops Landscaper's own prefix from a deploy item type.
func shortType(t string) string { return strings.TrimPrefix(t, "landscaper.gardener.cloud/") }

// ids names the tree's nodes for a picture: installations i0…, executions
// e0…, items n0…, in the order the picture walks them.
type ids struct {
	inst map[*Installation]string
	path map[string]string // installations' by path
	exec map[*Execution]string
	item map[string]string // by item ID
}

func number(t *Tree) ids {
	n := ids{inst: map[*Installation]string{}, path: map[string]string{}, exec: map[*Execution]string{}, item: map[string]string{}}
	var walk func(*Installation)
	walk = func(in *Installation) {
		n.inst[in] = fmt.Sprintf("i%d", len(n.inst))
		n.path[in.Path] = n.inst[in]
		for _, ex := range in.Executions {
			n.exec[ex] = fmt.Sprintf("e%d", len(n.exec))
			for _, it := range ex.Items {
				n.item[it.ID] = fmt.Sprintf("n%d", len(n.item))
			}
		}
		for _, sub := range in.Subinstallations {
			walk(sub)
		}
	}
	if t.Root != nil {
		walk(t.Root)
	}
	return n
}
