package template

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// A YAML error in a template's rendered output names a line of text the
// author never sees. renderedExcerpt shows that line and its neighbours
// with their structure — indentation, list markers and the keys the
// template spells out — and every value masked, since the output may hold
// secrets and data the user marked sensitive in Terraform that no
// scrubber knows (guide "Security"). A key the template does not contain
// literally was rendered from data, so it is masked too.

var (
	yamlErrLine = lazyregexp.New(`\bline (\d+)\b`)
	// yamlKeyLine is "<indent><list markers><plain key>:<rest>".
	yamlKeyLine = lazyregexp.New(`^(\s*(?:-\s+)*)([A-Za-z0-9_.\-/]+):(\s.*|)$`)
	yamlItem    = lazyregexp.New(`^(\s*(?:-\s+)*-)(\s.*|)$`)
)

const (
	excerptBefore   = 2
	excerptAfter    = 1
	excerptMaxWidth = 120
	masked          = "…"
)

// renderedExcerpt returns the lines of out, rendered from template, around
// the line err names, for an error message, or "" when err names none.
func renderedExcerpt(out []byte, template string, err error) string {
	return lineExcerpt("rendered output", out, template, err.Error())
}

// lineExcerpt is renderedExcerpt of the text what names (out), for the
// line msg names.
func lineExcerpt(what string, out []byte, template, msg string) string {
	m := yamlErrLine().FindStringSubmatch(msg)
	if m == nil {
		return ""
	}
	n, convErr := strconv.Atoi(m[1])
	lines := strings.Split(string(out), "\n")
	if convErr != nil || n < 1 || n > len(lines) {
		return ""
	}
	var b strings.Builder
	b.WriteString(what + ", ")
	writeExcerpt(&b, lines, n, func(l string) string { return maskYAMLLine(l, template) })
	return b.String()
}

// writeExcerpt writes "lines a-b (values masked):" and lines a to b
// around line n (1-based) of lines, each through mask, n marked ">".
func writeExcerpt(b *strings.Builder, lines []string, n int, mask func(string) string) {
	first, last := max(1, n-excerptBefore), min(len(lines), n+excerptAfter)
	fmt.Fprintf(b, "lines %d-%d (values masked):", first, last)
	for i := first; i <= last; i++ {
		mark := " "
		if i == n {
			mark = ">"
		}
		fmt.Fprintf(b, "\n%s %4d | %s", mark, i, mask(lines[i-1]))
	}
}

// maskYAMLLine keeps a line's indentation, list markers and a plain key
// that template spells out, and masks everything else.
func maskYAMLLine(line, template string) string {
	line = strings.TrimRight(line, "\r")
	var out string
	switch {
	case strings.TrimSpace(line) == "":
		return ""
	case yamlKeyLine().MatchString(line):
		m := yamlKeyLine().FindStringSubmatch(line)
		key := m[2]
		if !strings.Contains(template, key+":") {
			key = masked
		}
		out = m[1] + key + ":"
		if strings.TrimSpace(m[3]) != "" {
			out += " " + masked
		}
	case yamlItem().MatchString(line):
		m := yamlItem().FindStringSubmatch(line)
		out = m[1]
		if strings.TrimSpace(m[2]) != "" {
			out += " " + masked
		}
	default:
		out = line[:len(line)-len(strings.TrimLeft(line, " \t"))] + masked
	}
	if len(out) > excerptMaxWidth {
		out = out[:excerptMaxWidth] + masked
	}
	return out
}
