package treegraph

import (
	"fmt"
	"strings"
)

// Mermaid draws t as a Mermaid flowchart: installations and executions as
// nested subgraphs, deploy items as nodes (name, type, target), dependsOn
// as solid arrows from an item to what waits for it, data flow between
// siblings as dotted arrows labelled with the names. Installations whose
// items are known only after apply are dashed and say why.
func Mermaid(t *Tree) string {
	n := number(t)
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	var walk func(in *Installation, indent string)
	walk = func(in *Installation, indent string) {
		fmt.Fprintf(&b, "%ssubgraph %s[\"%s\"]\n", indent, n.inst[in], mermaidText(installationLabel(in)))
		inner := indent + "  "
		if in.Pending != "" {
			fmt.Fprintf(&b, "%s%s_pending[\"%s\"]\n", inner, n.inst[in], mermaidText("known after apply: "+in.Pending))
		} else if len(in.Executions) == 0 && len(in.Subinstallations) == 0 {
			fmt.Fprintf(&b, "%s%s_empty[\"no deploy items\"]\n", inner, n.inst[in])
		}
		for _, ex := range in.Executions {
			fmt.Fprintf(&b, "%ssubgraph %s[\"%s\"]\n", inner, n.exec[ex], mermaidText(executionLabel(ex)))
			for _, it := range ex.Items {
				fmt.Fprintf(&b, "%s  %s[\"%s\"]\n", inner, n.item[it.ID], mermaidLines(itemLines(it)))
			}
			fmt.Fprintf(&b, "%send\n", inner)
		}
		for _, sub := range in.Subinstallations {
			walk(sub, inner)
		}
		fmt.Fprintf(&b, "%send\n", indent)
	}
	if t.Root != nil {
		walk(t.Root, "  ")
	}
	for _, e := range dependsOn(t, n) {
		fmt.Fprintf(&b, "  %s --> %s\n", e[0], e[1])
	}
	for _, f := range t.Flows {
		fmt.Fprintf(&b, "  %s -.->|\"%s\"| %s\n", n.path[f.From], mermaidText(strings.Join(f.Names, ", ")), n.path[f.To])
	}
	var pending []string
	walkAll(t.Root, func(in *Installation) {
		if in.Pending != "" {
			pending = append(pending, n.inst[in])
		}
	})
	if len(pending) > 0 {
		b.WriteString("  classDef pending stroke-dasharray: 5 5\n")
		fmt.Fprintf(&b, "  class %s pending\n", strings.Join(pending, ","))
	}
	return b.String()
}

// mermaidText escapes text for a quoted Mermaid label.
func mermaidText(s string) string { return mermaidEscapes.Replace(s) }

var mermaidEscapes = strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;", "\n", " ")

func mermaidLines(lines []string) string {
	for i, l := range lines {
		lines[i] = mermaidText(l)
	}
	return strings.Join(lines, "<br/>")
}

func installationLabel(in *Installation) string { return "installation " + in.Name }

func executionLabel(ex *Execution) string {
	if ex.Name == "" {
		return "deploy items"
	}
	return "execution " + ex.Name
}

// itemLines are a deploy item's label: name, type, target.
func itemLines(it *Item) []string {
	lines := []string{it.Name, shortType(it.Type)}
	if it.Target != "" {
		lines = append(lines, "target "+it.Target)
	}
	return lines
}

// dependsOn are the dependsOn edges as node ID pairs, what is waited for
// first, in the order of the waiting items; edges to items the tree does
// not hold are left out.
func dependsOn(t *Tree, n ids) [][2]string {
	var out [][2]string
	walkAll(t.Root, func(in *Installation) {
		for _, ex := range in.Executions {
			for _, it := range ex.Items {
				for _, d := range it.DependsOn {
					if from, ok := n.item[d]; ok {
						out = append(out, [2]string{from, n.item[it.ID]})
					}
				}
			}
		}
	})
	return out
}

func walkAll(in *Installation, fn func(*Installation)) {
	if in == nil {
		return
	}
	fn(in)
	for _, sub := range in.Subinstallations {
		walkAll(sub, fn)
	}
}
