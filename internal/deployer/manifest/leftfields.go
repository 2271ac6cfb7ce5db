package manifest

import (
	"fmt"
	"strconv"
	"strings"
)

// Fields left to others (manifests[].leftToOthers, an extension of
// Landscaper's configuration). Landscaper applies every field a manifest
// sets at every reconcile, and so does this deployer by default: a field
// another field manager took (`kubectl scale`, an HPA, `kubectl set
// image`, a webhook's annotation) is drift that names that manager, and
// the next apply takes it back. A field the manifest lists here is taken
// out of the object before anything else sees it, so the apply's
// server-side apply no longer sets it (its manager keeps it), the drift
// check does not compare it and the preview does not show it.

// maxLeftFields bounds the list of one manifest.
const maxLeftFields = 64

// leaveToOthers removes the fields paths name from obj.
func leaveToOthers(obj map[string]any, paths []string) error {
	if len(paths) > maxLeftFields {
		return fmt.Errorf("%d fields, at most %d", len(paths), maxLeftFields)
	}
	for _, p := range paths {
		segs, err := parseLeftPath(p)
		if err != nil {
			return fmt.Errorf("%q: %w", p, err)
		}
		removeAt(obj, segs)
	}
	return nil
}

// parseLeftPath reads a path of map keys and list indexes:
// `.spec.replicas`, `.spec.template.spec.containers[0].image`,
// `.metadata.annotations['example.com/ca-bundle']`. It must end in a map
// key and may not name what identifies the object.
func parseLeftPath(p string) ([]any, error) {
	var segs []any
	rest := strings.TrimSpace(p)
	for rest != "" {
		switch {
		case strings.HasPrefix(rest, "['") || strings.HasPrefix(rest, `["`):
			quote := rest[1:2]
			end := strings.Index(rest[2:], quote+"]")
			if end < 0 {
				return nil, fmt.Errorf("unterminated %s", rest[:2])
			}
			segs = append(segs, rest[2:2+end])
			rest = rest[2+end+2:]
		case strings.HasPrefix(rest, "["):
			end := strings.Index(rest, "]")
			if end < 0 {
				return nil, fmt.Errorf("unterminated [")
			}
			n, err := strconv.Atoi(rest[1:end])
			if err != nil || n < 0 {
				return nil, fmt.Errorf("[%s] is no list index", rest[1:end])
			}
			segs = append(segs, n)
			rest = rest[end+1:]
		case strings.HasPrefix(rest, "."):
			rest = rest[1:]
			end := strings.IndexAny(rest, ".[")
			if end < 0 {
				end = len(rest)
			}
			if end == 0 {
				return nil, fmt.Errorf("empty field name")
			}
			segs = append(segs, rest[:end])
			rest = rest[end:]
		default:
			return nil, fmt.Errorf("want .field, [index] or ['key'] at %q", rest)
		}
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("names no field")
	}
	if _, isKey := segs[len(segs)-1].(string); !isKey {
		return nil, fmt.Errorf("must end in a field name, not a list index (a list element is never left out whole)")
	}
	if first, _ := segs[0].(string); first == "apiVersion" || first == "kind" || (first == "metadata" &&
		(len(segs) == 1 || segs[1] == "name" || segs[1] == "namespace" || segs[1] == "labels" && len(segs) == 2 || segs[1] == "annotations" && len(segs) == 2)) {
		return nil, fmt.Errorf("identifies the object or holds the deployer's bookkeeping: it cannot be left to others")
	}
	return segs, nil
}

// removeAt deletes the field at segs; a path that does not exist in obj
// changes nothing.
func removeAt(node any, segs []any) {
	for i, s := range segs {
		last := i == len(segs)-1
		switch k := s.(type) {
		case string:
			m, ok := node.(map[string]any)
			if !ok {
				return
			}
			if last {
				delete(m, k)
				return
			}
			node = m[k]
		case int:
			l, ok := node.([]any)
			if !ok || k >= len(l) {
				return
			}
			node = l[k]
		}
	}
}
