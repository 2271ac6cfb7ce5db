package treegraph

import (
	"fmt"
	"strings"
)

// DOT draws t as a Graphviz digraph with the same content as Mermaid:
// installations and executions as nested clusters (an installation's
// cluster is headed by a folder node with its name, where its data flow
// arrows start and end), deploy items as boxes, dependsOn as solid and
// data flow as dashed edges.
func DOT(t *Tree) string {
	n := number(t)
	var b strings.Builder
	b.WriteString("digraph landscape {\n")
	b.WriteString("  rankdir=LR;\n  compound=true;\n  fontname=\"Helvetica\";\n  fontsize=10;\n")
	b.WriteString("  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=10];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
	var walk func(in *Installation, indent string)
	walk = func(in *Installation, indent string) {
		inner := indent + "  "
		fmt.Fprintf(&b, "%ssubgraph cluster_%s {\n", indent, n.inst[in])
		anchor := installationLabel(in)
		if in.Pending != "" {
			fmt.Fprintf(&b, "%sstyle=dashed;\n", inner)
			anchor += "\n" + wrap("known after apply: "+in.Pending, 40)
		} else if len(in.Executions) == 0 && len(in.Subinstallations) == 0 {
			anchor += "\nno deploy items"
		}
		fmt.Fprintf(&b, "%s%s [shape=folder, style=\"\", label=%s];\n", inner, n.inst[in], dotString(anchor))
		for _, ex := range in.Executions {
			fmt.Fprintf(&b, "%ssubgraph cluster_%s {\n", inner, n.exec[ex])
			fmt.Fprintf(&b, "%s  label=%s;\n%s  style=dotted;\n", inner, dotString(executionLabel(ex)), inner)
			for _, it := range ex.Items {
				fmt.Fprintf(&b, "%s  %s [label=%s];\n", inner, n.item[it.ID], dotString(strings.Join(itemLines(it), "\n")))
			}
			fmt.Fprintf(&b, "%s}\n", inner)
		}
		for _, sub := range in.Subinstallations {
			walk(sub, inner)
		}
		fmt.Fprintf(&b, "%s}\n", indent)
	}
	if t.Root != nil {
		walk(t.Root, "  ")
	}
	for _, e := range dependsOn(t, n) {
		fmt.Fprintf(&b, "  %s -> %s;\n", e[0], e[1])
	}
	for _, f := range t.Flows {
		from, to := n.path[f.From], n.path[f.To]
		fmt.Fprintf(&b, "  %s -> %s [style=dashed, label=%s, ltail=cluster_%s, lhead=cluster_%s];\n",
			from, to, dotString(strings.Join(f.Names, ", ")), from, to)
	}
	b.WriteString("}\n")
	return b.String()
}

// dotString quotes s for DOT; line breaks become DOT's centred "\n".
func dotString(s string) string { return `"` + dotEscapes.Replace(s) + `"` }

var dotEscapes = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)

// wrap breaks s into lines of about width characters at spaces: Graphviz
// does not wrap labels.
func wrap(s string, width int) string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return strings.Join(append(lines, line), "\n")
}
