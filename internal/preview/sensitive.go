package preview

import (
	"encoding/base64"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// minSensitive is the shortest value masked, as package redact has it:
// shorter strings ("true", a port) would mask half of every object and
// protect nothing.
const minSensitive = 4

// Sensitive is the set of values a preview masks wherever they appear:
// Secret imports, sensitive exports, target credentials, Helm values read
// from Secrets. Each value's lines count on their own too, and so does
// its base64 form (charts b64enc values into Secrets and ConfigMaps).
// It holds the same values the provider registers with package redact;
// it is its own set because masking here replaces each occurrence with a
// versioned marker, which needs the values themselves. The zero value is
// empty and ready; it is safe for concurrent use.
type Sensitive struct {
	mu  sync.RWMutex
	set map[string]bool
	// byPrefix holds the values by their first minSensitive bytes, each
	// list longest first: find looks up every position of a string once,
	// instead of searching the string for every value.
	byPrefix map[uint32][]string
	// bools are the key paths of sensitive booleans (AddBoolPaths).
	bools [][]string
}

// AddBoolPaths registers sensitive booleans by the key paths that lead to
// them (redact.Secrets.BoolPaths): a boolean cannot be found by its value,
// so a boolean field is masked when its key path ends with one of them.
func (s *Sensitive) AddBoolPaths(paths ...[]string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bools = append(s.bools, paths...)
}

// boolAt says whether a boolean at path (an object's keys and list
// positions) is sensitive: its keys, positions left out, end with a
// registered path.
func (s *Sensitive) boolAt(path []string) bool {
	if s == nil {
		return false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.bools) == 0 {
		return false
	}
	keys := make([]string, 0, len(path))
	for _, k := range path {
		if _, err := strconv.Atoi(k); err != nil {
			keys = append(keys, k)
		}
	}
	for _, p := range s.bools {
		if len(p) > 0 && len(p) <= len(keys) && slices.Equal(keys[len(keys)-len(p):], p) {
			return true
		}
	}
	return false
}

// Add registers values.
func (s *Sensitive) Add(values ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set == nil {
		s.set = map[string]bool{}
	}
	added := false
	add := func(v string) {
		if len(v) >= minSensitive && !s.set[v] {
			s.set[v], added = true, true
		}
	}
	for _, v := range values {
		add(v)
		add(base64.StdEncoding.EncodeToString([]byte(v)))
		if strings.Contains(v, "\n") {
			for _, line := range strings.Split(v, "\n") {
				add(strings.TrimSpace(line))
			}
		}
	}
	if !added {
		return
	}
	s.byPrefix = make(map[uint32][]string, len(s.set))
	for v := range s.set {
		p := prefix(v)
		s.byPrefix[p] = append(s.byPrefix[p], v)
	}
	for _, list := range s.byPrefix {
		sort.Slice(list, func(i, j int) bool {
			if len(list[i]) != len(list[j]) {
				return len(list[i]) > len(list[j])
			}
			return list[i] < list[j]
		})
	}
}

// prefix packs the first minSensitive bytes of v.
func prefix(v string) uint32 {
	return uint32(v[0]) | uint32(v[1])<<8 | uint32(v[2])<<16 | uint32(v[3])<<24
}

// AddValue registers every string inside v (decoded JSON or YAML).
func (s *Sensitive) AddValue(v any) {
	switch x := v.(type) {
	case string:
		s.Add(x)
	case map[string]any:
		for _, e := range x {
			s.AddValue(e)
		}
	case []any:
		for _, e := range x {
			s.AddValue(e)
		}
	}
}

// span is one occurrence of a sensitive value in a string.
type span struct{ start, end int }

// find returns the occurrences of registered values in str, left to
// right, not overlapping; at one position the longest value wins.
func (s *Sensitive) find(str string) []span {
	if s == nil || len(str) < minSensitive {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.byPrefix) == 0 {
		return nil
	}
	var out []span
	for i := 0; i+minSensitive <= len(str); {
		matched := 0
		for _, v := range s.byPrefix[prefix(str[i:])] {
			if strings.HasPrefix(str[i:], v) {
				matched = len(v) // the longest, as lists are sorted so
				break
			}
		}
		if matched == 0 {
			i++
			continue
		}
		out = append(out, span{i, i + matched})
		i += matched
	}
	return out
}
