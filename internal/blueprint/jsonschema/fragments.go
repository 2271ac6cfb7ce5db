package jsonschema

import (
	"fmt"
	"sort"
	"strings"

	sjs "github.com/santhosh-tekuri/jsonschema/v6"
)

// Landscaper validates with gojsonschema, whose reference parser drops a
// fragment that is not a JSON pointer (`#definitions/x`, no leading slash)
// without an error: such a reference resolves to the whole document it
// names. Blueprints in production rely on that, so the same references are
// rewritten to what Landscaper resolves them to (the document) and reported
// as a warning; the subschema the author probably meant is NOT applied,
// exactly as in Landscaper. A schema whose root refers to itself this way
// recurses without end in gojsonschema; here it is a reference-cycle error.

// looseFragments rewrites the non-pointer `$ref` fragments of one schema
// document in place. where names the document in warnings.
type looseFragments struct {
	where string
	warn  func(string)
	// anchors are the plain-name fragments the document defines
	// (`$anchor: x`, `$id: "#x"`, draft-04 `id: "#x"`); `#x` naming one of
	// them is an anchor reference, which the validator resolves itself.
	anchors map[string]bool
}

func fixLooseFragments(doc any, where string, warn func(string)) {
	f := looseFragments{where: where, warn: warn, anchors: map[string]bool{}}
	f.collectAnchors(doc)
	f.rewrite(doc, "")
}

func (f looseFragments) collectAnchors(node any) {
	switch n := node.(type) {
	case map[string]any:
		if a, ok := n["$anchor"].(string); ok {
			f.anchors[a] = true
		}
		for _, key := range []string{"$id", "id"} {
			if id, ok := n[key].(string); ok && strings.HasPrefix(id, "#") {
				f.anchors[id[1:]] = true
			}
		}
		for _, v := range n {
			f.collectAnchors(v)
		}
	case []any:
		for _, v := range n {
			f.collectAnchors(v)
		}
	}
}

// rewrite walks the document; path is the JSON pointer of node, for the
// warning.
func (f looseFragments) rewrite(node any, path string) {
	switch n := node.(type) {
	case map[string]any:
		keys := make([]string, 0, len(n))
		for k := range n {
			keys = append(keys, k)
		}
		sort.Strings(keys) // warnings in a stable order
		for _, k := range keys {
			v := n[k]
			if ref, ok := v.(string); ok && k == "$ref" {
				if fixed, changed := f.fix(ref); changed {
					n[k] = fixed
					f.warn(fmt.Sprintf("%s#%s/$ref: %q is not a JSON pointer fragment (it needs a leading \"/\"); "+
						"as in Landscaper it refers to the whole document %q, so the subschema it seems to name is not applied",
						f.where, path, ref, fixed))
				}
				continue
			}
			f.rewrite(v, path+"/"+escapePointer(k))
		}
	case []any:
		for i, v := range n {
			f.rewrite(v, fmt.Sprintf("%s/%d", path, i))
		}
	}
}

// fix returns ref without a fragment gojsonschema would ignore.
func (f looseFragments) fix(ref string) (string, bool) {
	base, frag, found := strings.Cut(ref, "#")
	if !found || frag == "" || strings.HasPrefix(frag, "/") {
		return ref, false
	}
	if !strings.Contains(frag, "/") && (base != "" || f.anchors[frag]) {
		// A plain name: an anchor here, or one in another document the
		// validator resolves (or rejects) itself.
		return ref, false
	}
	if base == "" {
		return "#", true
	}
	return base, true
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// fixingLoader applies fixLooseFragments to every document it loads.
type fixingLoader struct {
	next sjs.URLLoader
	warn func(string)
}

func (l fixingLoader) Load(url string) (any, error) {
	doc, err := l.next.Load(url)
	if err != nil {
		return nil, err
	}
	fixLooseFragments(doc, url, l.warn)
	return doc, nil
}
