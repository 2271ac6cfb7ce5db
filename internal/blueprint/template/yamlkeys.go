package template

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Colliding keys. YAML keys of different types may become one JSON key:
// 1 and "1", true (or yes) and "true", 1.5 and "1.5". Landscaper decodes
// template output with sigs.k8s.io/yaml, which turns each key into its
// string while ranging over a Go map, so the value it keeps is whichever
// that random order meets last: the same blueprint renders two
// configurations, and config_hash flips between plans. No order is
// Landscaper's to reproduce, so such a map is an error naming the key,
// where it is and both forms (docs/guides/security.md).

// keyCollision returns the error for the first pair of keys of one map in
// v that become the same JSON key, nil if there is none. "First" is
// deterministic: maps in document order of their sorted keys, depth
// first. Keys JSON cannot hold at all are left to the round trip's error.
func keyCollision(v any, path string) error {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			if err := keyCollision(e, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case map[any]any:
		type entry struct {
			key  string
			orig any
			val  any
		}
		entries := make([]entry, 0, len(x))
		for k, e := range x {
			if s, ok := jsonKey(k); ok {
				entries = append(entries, entry{s, k, e})
			}
		}
		sort.Slice(entries, func(i, j int) bool {
			if entries[i].key != entries[j].key {
				return entries[i].key < entries[j].key
			}
			return keyRank(entries[i].orig) < keyRank(entries[j].orig)
		})
		for i := 1; i < len(entries); i++ {
			if a, b := entries[i-1], entries[i]; a.key == b.key {
				where := ""
				if path != "" {
					where = " at " + path
				}
				return &keyCollisionError{fmt.Sprintf("map key %q%s is given twice: as %s and as %s, which are one key once the output is JSON "+
					"(Landscaper would keep either value at random); write the key once", a.key, where, describeKey(a.orig), describeKey(b.orig))}
			}
		}
		for _, e := range entries {
			if err := keyCollision(e.val, joinPath(path, e.key)); err != nil {
				return err
			}
		}
	}
	return nil
}

// keyCollisionError quotes no value: the key is the text of a number or
// a boolean (one of its two forms is one), the path names only keys.
// YAMLErrorWithoutValues keeps it whole.
type keyCollisionError struct{ msg string }

func (e *keyCollisionError) Error() string { return e.msg }

// keyRank orders the forms of one key: number, string, boolean.
func keyRank(k any) int {
	switch k.(type) {
	case string:
		return 1
	case bool:
		return 2
	}
	return 0
}

// describeKey is a key as written, with its YAML type.
func describeKey(k any) string {
	switch x := k.(type) {
	case string:
		return strconv.Quote(x) + " (a string)"
	case bool:
		return strconv.FormatBool(x) + " (a boolean)"
	}
	s, _ := jsonKey(k)
	return s + " (a number)"
}

// joinPath appends key to a path of the output ("a.b[2].c"); a key that
// is not a plain word is quoted.
func joinPath(path, key string) string {
	if key == "" || strings.ContainsAny(key, ".[]\"' \t\n") {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
