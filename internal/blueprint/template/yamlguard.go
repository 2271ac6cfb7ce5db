package template

import (
	"bytes"
	"errors"
	"fmt"
	"io"
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
	c := aliasCounter{memo: map[*yaml.Node]int64{}, limit: maxNodes}
	_, rejected, err := countDocuments(name, data, &c, 0)
	if err != nil || !rejected {
		return err
	}
	// yaml.v3 cannot read on after a document it rejects, but other
	// parsers may (Spiff's "multiyaml" read): count every document on its
	// own, split at the document markers, each from nothing again.
	var total int64
	for _, doc := range splitDocuments(data) {
		c := aliasCounter{memo: map[*yaml.Node]int64{}, limit: maxNodes}
		var n int64
		if n, _, err = countDocuments(name, doc, &c, total); err != nil {
			return err
		}
		total += n
	}
	return nil
}

// countDocuments adds the expanded nodes of data's documents to total
// until the stream ends or a document is rejected (rejected is then
// true; a syntax error is left to the parser that reads the document for
// real, which reports it with context). It returns the nodes counted.
func countDocuments(name string, data []byte, c *aliasCounter, total int64) (n int64, rejected bool, err error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return n, !errors.Is(err, io.EOF), nil
		}
		n += c.expandedNodes(&doc)
		if c.cycle {
			return n, false, fmt.Errorf("%s: a YAML alias lies inside the node of its own anchor", name)
		}
		if total+n > c.limit {
			return n, false, limitError(fmt.Sprintf("%s: YAML aliases expand to more than %d nodes", name, c.limit), "max_yaml_nodes")
		}
	}
}

// splitDocuments cuts data before every document marker ("---" or "..."
// at the start of a line, alone or followed by a blank): a superset of the
// documents' boundaries, since no scalar may hold such a line.
func splitDocuments(data []byte) [][]byte {
	var docs [][]byte
	start := 0
	for i := 0; i < len(data); {
		if (i == 0 || data[i-1] == '\n') && isDocumentMarker(data[i:]) && i > start {
			docs = append(docs, data[start:i])
			start = i
		}
		next := bytes.IndexByte(data[i:], '\n')
		if next < 0 {
			break
		}
		i += next + 1
	}
	return append(docs, data[start:])
}

func isDocumentMarker(line []byte) bool {
	if !bytes.HasPrefix(line, []byte("---")) && !bytes.HasPrefix(line, []byte("...")) {
		return false
	}
	return len(line) == 3 || strings.IndexByte(" \t\r\n", line[3]) >= 0
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
