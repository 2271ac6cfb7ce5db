package preview

import "strings"

// MasksNothing reports whether rendering the objects that text, a
// preview's text of them, shows once more, with the values s registers
// now, is certain to mask nothing and so to record no marks: the text
// shows no marker (Secret data, URL credentials and every value
// registered when it was rendered would show as one) and no value s
// registers can be in any of its strings. A value can be in a string
// only if each of its lines is in the text: the encoder prints a line
// of printable ASCII without quotes or backslashes as it is in every
// style (plain, quoted, literal block) and never folds. A value none of
// whose lines is of that kind, or whose every such line the text holds,
// may be there: the answer is false, as it is while s registers
// sensitive booleans (AddBoolPaths), which have no text to look for.
//
// It lets an apply that keeps its plan's texts skip rendering them again
// for the marks under the key it has just drawn (a create): what is not
// masked records nothing.
func (s *Sensitive) MasksNothing(text string) bool {
	if strings.Contains(text, markerPrefix) {
		return false
	}
	if s == nil {
		return true
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.bools) > 0 {
		return false
	}
	for v := range s.set {
		if !absentFrom(v, text) {
			return false
		}
	}
	return true
}

// absentFrom reports whether v can be in no string that text shows: one
// of its lines that the encoder prints as it is is not in text.
func absentFrom(v, text string) bool {
	for _, line := range strings.Split(v, "\n") {
		if line = strings.TrimSpace(line); line != "" && printedVerbatim(line) && !strings.Contains(text, line) {
			return true
		}
	}
	return false
}

// printedVerbatim reports whether the encoder prints s, within any string
// scalar, as it is: printable ASCII, no quote, no backslash (which the
// quoted styles escape).
func printedVerbatim(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\'' || c == '\\' {
			return false
		}
	}
	return true
}
