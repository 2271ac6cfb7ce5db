package template

import (
	"fmt"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// A Spiff failure names the expression that failed and its path in the
// document ("deployItems.[0].config.a", and with list entries named
// "deployItems.name:app.config.a"), not the line of the template it was
// written on. spiffExcerpt adds the deploy item the path lies in and the
// template's lines around the failing expression, as a GoTemplate YAML
// error shows the rendered lines (renderedExcerpt): indentation, list
// markers, keys and Spiff expressions — what the author wrote to compute
// values — are kept, every literal value is masked, since a template may
// spell out a default that is a secret.

// spiffUnresolved is one node of Spiff's "unresolved nodes" error:
// "\t(( expr ))\tin <name>\t<path>\t(<named path>)\t*<message>".
var spiffUnresolved = lazyregexp.New(`(?m)^\t(\(\(.*\)\))\tin [^\t]*\t([^\t]*)\t\(([^\t]*)\)\t\*`)

// spiffItemName is the deploy item a named path lies in.
var spiffItemName = lazyregexp.New(`^deployItems\.name:([^.]+)`)

// maxSpiffExcerpts bounds how many failing nodes get their lines shown.
const maxSpiffExcerpts = 3

// spiffExcerpt returns, for the nodes Spiff's error msg names, the deploy
// item each lies in and the template's lines around it; "" when msg names
// no node or none can be found in the template. A YAML error of the
// template itself, which names its line, gets those lines.
func spiffExcerpt(template []byte, msg string) string {
	text := string(template)
	nodes := spiffUnresolved().FindAllStringSubmatch(msg, maxSpiffExcerpts)
	if len(nodes) == 0 {
		return lineExcerpt("template", template, text, msg)
	}
	lines := strings.Split(text, "\n")
	var b strings.Builder
	for _, n := range nodes {
		expr, path, named := n[1], n[2], n[3]
		line := spiffLineOf(lines, expr, path)
		if line == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		b.WriteString(expr)
		if m := spiffItemName().FindStringSubmatch(named); m != nil {
			fmt.Fprintf(&b, " in deploy item %q", m[1])
		}
		b.WriteString(", template ")
		writeExcerpt(&b, lines, line, func(l string) string { return maskSpiffLine(l, text) })
	}
	return b.String()
}

// spiffLineOf is the 1-based line of the template on which expr is
// written under the last key of path; the first line holding expr when
// no such line holds it; 0 when none does.
func spiffLineOf(lines []string, expr, path string) int {
	key := path[strings.LastIndex(path, ".")+1:]
	first := 0
	for i, l := range lines {
		if !strings.Contains(l, expr) {
			continue
		}
		if m := yamlKeyLine().FindStringSubmatch(l); m != nil && m[2] == key {
			return i + 1
		}
		if first == 0 {
			first = i + 1
		}
	}
	return first
}

// spiffExpr is a Spiff expression within a line.
var spiffExpr = lazyregexp.New(`\(\(.*\)\)`)

// maskSpiffLine is maskYAMLLine that keeps a value which is a Spiff
// expression: the template's own text, which computes the value.
func maskSpiffLine(line, template string) string {
	line = strings.TrimRight(line, "\r")
	if m := yamlKeyLine().FindStringSubmatch(line); m != nil {
		if expr := strings.TrimSpace(m[3]); spiffExpr().MatchString(expr) && strings.HasPrefix(expr, "((") {
			out := m[1] + m[2] + ": " + expr
			if len(out) > excerptMaxWidth {
				out = out[:excerptMaxWidth] + masked
			}
			return out
		}
	}
	if m := yamlItem().FindStringSubmatch(line); m != nil {
		if expr := strings.TrimSpace(m[2]); strings.HasPrefix(expr, "((") && strings.HasSuffix(expr, "))") {
			return m[1] + " " + expr
		}
	}
	return maskYAMLLine(line, template)
}
