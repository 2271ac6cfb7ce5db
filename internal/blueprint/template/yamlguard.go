package template

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// CheckYAMLAliases refuses a YAML stream whose documents, with every alias
// expanded, hold more than maxNodes nodes. Parsers that expand aliases
// (Spiff's does, without limit) turn a few hundred bytes of nested
// aliases into gigabytes; this check parses into yaml.v3's node form,
// which keeps aliases as references, and counts each anchor's expansion
// once. Input that is not YAML passes: the real parser reports it.
func CheckYAMLAliases(name string, data []byte, maxNodes int64) error {
	if !bytes.Contains(data, []byte("*")) {
		return nil // no aliases
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	c := aliasCounter{memo: map[*yaml.Node]int64{}, limit: maxNodes}
	var total int64
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err != nil {
			// io.EOF ends the stream; a syntax error is left to the parser
			// that reads the document for real, which reports it with context.
			return nil //nolint:nilerr // see above: this guard only counts nodes
		}
		total += c.expandedNodes(&doc)
		if c.cycle {
			return fmt.Errorf("%s: a YAML alias lies inside the node of its own anchor", name)
		}
		if total > maxNodes {
			return limitError(fmt.Sprintf("%s: YAML aliases expand to more than %d nodes", name, maxNodes), "max_yaml_nodes")
		}
	}
}

// aliasCounter counts nodes with aliases expanded, each anchor's
// expansion once (memo).
type aliasCounter struct {
	memo  map[*yaml.Node]int64
	limit int64
	// cycle is set when an alias lies inside its own anchor's node
	// ("a: &x {<<: *x}", "b: &x [*x]"): yaml.v3 links it to a node being
	// counted, whose expansion has no end. Following it recursed until the
	// stack overflowed, which ends the process; the parsers refuse such
	// anchors too ("value contains itself"), Spiff's perhaps not.
	cycle bool
}

// expanding marks a node in the memo while its count is made.
const expanding = -1

// expandedNodes counts n's nodes with aliases expanded, stopping early
// once the count exceeds the limit or a cycle is found.
func (c *aliasCounter) expandedNodes(n *yaml.Node) int64 {
	if v, ok := c.memo[n]; ok {
		if v == expanding {
			c.cycle = true
			return c.limit + 1
		}
		return v
	}
	c.memo[n] = expanding
	size := int64(1)
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		size += c.expandedNodes(n.Alias)
	}
	for _, child := range n.Content {
		if size > c.limit || c.cycle {
			break
		}
		size += c.expandedNodes(child)
	}
	c.memo[n] = size
	return size
}

// YAMLErrorWithoutValues returns err's message cut before the first value
// it quotes: YAML and YAML-to-JSON errors print offending keys, maps and
// scalars ("invalid map key: map[…]{…}", "found character that cannot
// start any token: '…'"), and rendered output may hold imported secrets.
// The line number and the rule stay; a key collision (yamlkeys.go), which
// quotes no value, stays whole.
func YAMLErrorWithoutValues(err error) string {
	if kc := (*keyCollisionError)(nil); errors.As(err, &kc) {
		return kc.Error()
	}
	msg := err.Error()
	cut := len(msg)
	for _, marker := range []string{"map[", `"`, "'", "`", "{"} {
		if i := strings.Index(msg, marker); i >= 0 && i < cut {
			cut = i
		}
	}
	if cut == len(msg) {
		return msg
	}
	return strings.TrimRight(msg[:cut], " :") + " (value not shown)"
}
