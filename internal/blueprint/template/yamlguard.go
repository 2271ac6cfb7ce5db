package template

import (
	"bytes"
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
	memo := map[*yaml.Node]int64{}
	var total int64
	for {
		var doc yaml.Node
		err := dec.Decode(&doc)
		if err != nil {
			// io.EOF ends the stream; a syntax error is left to the parser
			// that reads the document for real, which reports it with context.
			return nil //nolint:nilerr // see above: this guard only counts nodes
		}
		if total += expandedNodes(&doc, memo, maxNodes); total > maxNodes {
			return limitError(fmt.Sprintf("%s: YAML aliases expand to more than %d nodes", name, maxNodes), "max_yaml_nodes")
		}
	}
}

// expandedNodes counts n's nodes with aliases expanded, stopping early
// once the count exceeds limit.
func expandedNodes(n *yaml.Node, memo map[*yaml.Node]int64, limit int64) int64 {
	if v, ok := memo[n]; ok {
		return v
	}
	size := int64(1)
	if n.Kind == yaml.AliasNode && n.Alias != nil {
		size += expandedNodes(n.Alias, memo, limit)
	}
	for _, c := range n.Content {
		if size > limit {
			break
		}
		size += expandedNodes(c, memo, limit)
	}
	memo[n] = size
	return size
}

// YAMLErrorWithoutValues returns err's message cut before the first value
// it quotes: YAML and YAML-to-JSON errors print offending keys, maps and
// scalars ("invalid map key: map[…]{…}", "found character that cannot
// start any token: '…'"), and rendered output may hold imported secrets.
// The line number and the rule stay.
func YAMLErrorWithoutValues(err error) string {
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
