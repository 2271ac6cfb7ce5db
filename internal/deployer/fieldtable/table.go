package fieldtable

import (
	"fmt"
	"strings"
)

// Verdict is what the provider does with a field.
type Verdict string

// The verdicts of the table.
const (
	// Honoured: as Landscaper's deployer does; Tests prove it.
	Honoured Verdict = "honoured"
	// Refused: a plan error saying why (How).
	Refused Verdict = "refused at plan"
	// Differs: accepted, and the provider does something else on purpose
	// (How says what and why).
	Differs Verdict = "differs on purpose"
)

// Row is one field.
type Row struct {
	// Path is the field's path in the configuration: "a.b[].c".
	Path string
	// Since is the Landscaper version that introduced the field ("v0.110");
	// "≤ v0.5" for fields older than the first tagged API; "" for a field
	// of the provider's own. A field Landscaper removed says so here.
	Since   string
	Verdict Verdict
	// How says what the provider does, in Markdown.
	How string
	// Tests name the test functions that prove it.
	Tests []string
	// Same says the field's subfields are those of another table's field
	// (a type both deployers share); the table does not repeat them.
	Same string
}

// Table is one configuration's rows.
type Table struct {
	Title string
	Rows  []Row
}

// Markdown renders t as a Markdown table.
func (t Table) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n| Field | Since | Verdict | What the provider does |\n| --- | --- | --- | --- |\n", t.Title)
	for _, r := range t.Rows {
		since := r.Since
		if since == "" {
			since = "provider"
		}
		verdict := string(r.Verdict)
		if r.Verdict == Honoured && len(r.Tests) == 0 {
			verdict += " (untested)"
		}
		how := r.How
		if r.Same != "" {
			how = strings.TrimSpace(how + " Fields as " + r.Same + ".")
		}
		if len(r.Tests) > 0 {
			names := make([]string, len(r.Tests))
			for i, n := range r.Tests {
				names[i] = "`" + n + "`"
			}
			how = strings.TrimSpace(how + " Tests: " + strings.Join(names, ", ") + ".")
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", r.Path, since, verdict, strings.ReplaceAll(how, "|", `\|`))
	}
	return b.String()
}
