package redact

import (
	"strings"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/lazyregexp"
)

// Messages of other programs quote the values they reject: the Kubernetes
// API server's field errors (`Invalid value: "…"`) and the JSON-schema
// errors Helm prints for a chart's values.schema.json (`at '/password':
// 'hunter2' does not match pattern …`). A value may be a secret the
// provider cannot know is one — Terraform does not tell providers which
// inputs are sensitive — so such values are masked wherever they appear;
// the path and the rule stay.
var (
	// kubeFieldValue is where a field error's value starts (fieldValueLen
	// finds its end).
	kubeFieldValue = lazyregexp.New(`\b(?:Invalid value|Unsupported value|Duplicate value): `)
	// schemaLine is one violation of a JSON-schema validation error.
	schemaLine = lazyregexp.New(`at '[^']*': `)
	// schemaValues are the parts of a violation that show the value:
	// the string a pattern rejects, the value a format rejects, the
	// number a bound rejects.
	schemaPattern = lazyregexp.New(`('(?:[^'\\]|\\.)*'|\S+) does not match pattern`)
	schemaFormat  = lazyregexp.New(`('(?:[^'\\]|\\.)*'|\S+) is not valid `)
	schemaBound   = lazyregexp.New(`\b(minimum|maximum|exclusiveMinimum|exclusiveMaximum|multipleOf): got [^,]+,`)
)

// QuotedValues masks the values that Kubernetes field errors and
// JSON-schema violations quote.
func QuotedValues(msg string) string {
	if strings.Contains(msg, " value: ") {
		msg = maskFieldValues(msg)
	}
	if !strings.Contains(msg, "at '") {
		return msg
	}
	lines := strings.Split(msg, "\n")
	for i, line := range lines {
		loc := schemaLine().FindStringIndex(line)
		if loc == nil {
			continue
		}
		detail := line[loc[1]:]
		detail = schemaPattern().ReplaceAllString(detail, Mask+" does not match pattern")
		detail = schemaFormat().ReplaceAllString(detail, Mask+" is not valid ")
		detail = schemaBound().ReplaceAllString(detail, "$1: got "+Mask+",")
		lines[i] = line[:loc[1]] + detail
	}
	return strings.Join(lines, "\n")
}

// maskFieldValues masks the value of every field error in msg.
func maskFieldValues(msg string) string {
	var b strings.Builder
	for {
		loc := kubeFieldValue().FindStringIndex(msg)
		if loc == nil {
			return b.String() + msg
		}
		b.WriteString(msg[:loc[1]])
		b.WriteString(Mask)
		msg = msg[loc[1]+fieldValueLen(msg[loc[1]:]):]
	}
}

// fieldValueLen is the length of the value s starts with, as the API
// server prints it: a quoted string, a scalar, JSON (apimachinery since
// v0.33) or Go syntax (%#v: `map[string]interface {}{"k":"v"}`,
// `v1.X{A:"b", C:1}`). Quoted strings are skipped whole and brackets
// balanced; the value ends at a colon, comma, blank, line end or closing
// bracket outside them — where the detail or the next error begins.
func fieldValueLen(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '`':
			i = quoteEnd(s, i)
		case '{', '[', '(':
			depth++
		case '}', ']', ')':
			if depth == 0 {
				return i
			}
			depth--
		case ':', ',', '\n', ' ', '\t':
			if depth > 0 {
				continue
			}
			if c == ' ' && strings.HasPrefix(s[i:], " {") {
				continue // Go's "interface {}" and "struct {…}"
			}
			return i
		}
	}
	return len(s)
}

// quoteEnd is the index of the quote closing the string opened at
// s[open] (a backslash escapes in "…", not in `…`), or the last index.
func quoteEnd(s string, open int) int {
	for i := open + 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if s[open] == '"' {
				i++
			}
		case s[open]:
			return i
		}
	}
	return len(s) - 1
}
