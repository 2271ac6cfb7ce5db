package redact

import (
	"regexp"
	"strings"
)

// Messages of other programs quote the values they reject: the Kubernetes
// API server's field errors (`Invalid value: "…"`) and the JSON-schema
// errors Helm prints for a chart's values.schema.json (`at '/password':
// 'hunter2' does not match pattern …`). A value may be a secret the
// provider cannot know is one — Terraform does not tell providers which
// inputs are sensitive — so such values are masked wherever they appear;
// the path and the rule stay.
var (
	// kubeFieldValue is a field error's value: a quoted string, or a
	// bare scalar up to the next colon or separator.
	kubeFieldValue = regexp.MustCompile(`\b(Invalid value|Unsupported value|Duplicate value): ("(?:[^"\\]|\\.)*"|[^\s:,]+)`)
	// schemaLine is one violation of a JSON-schema validation error.
	schemaLine = regexp.MustCompile(`at '[^']*': `)
	// schemaValues are the parts of a violation that show the value:
	// the string a pattern rejects, the value a format rejects, the
	// number a bound rejects.
	schemaPattern = regexp.MustCompile(`('(?:[^'\\]|\\.)*'|\S+) does not match pattern`)
	schemaFormat  = regexp.MustCompile(`('(?:[^'\\]|\\.)*'|\S+) is not valid `)
	schemaBound   = regexp.MustCompile(`\b(minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf): got [^,]+,`)
)

// QuotedValues masks the values that Kubernetes field errors and
// JSON-schema violations quote.
func QuotedValues(msg string) string {
	if strings.Contains(msg, " value: ") {
		msg = kubeFieldValue.ReplaceAllString(msg, "$1: "+Mask)
	}
	if !strings.Contains(msg, "at '") {
		return msg
	}
	lines := strings.Split(msg, "\n")
	for i, line := range lines {
		loc := schemaLine.FindStringIndex(line)
		if loc == nil {
			continue
		}
		detail := line[loc[1]:]
		detail = schemaPattern.ReplaceAllString(detail, Mask+" does not match pattern")
		detail = schemaFormat.ReplaceAllString(detail, Mask+" is not valid ")
		detail = schemaBound.ReplaceAllString(detail, "$1: got "+Mask+",")
		lines[i] = line[:loc[1]] + detail
	}
	return strings.Join(lines, "\n")
}
