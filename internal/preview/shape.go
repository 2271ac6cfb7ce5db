package preview

import (
	"errors"
	"hash/fnv"
	"sort"
	"strings"
)

// The shape an item's text takes in deploy_item_objects (issue 34): not
// one multi-line string, which Terraform and OpenTofu show whole when one
// line of it changes (and diff with a line-by-line LCS whose table grows
// with the square of the text), but a JSON object of the item's objects
// by header (what Join writes after "# "), each object's text a list of
// its lines. Their plan renderers hide unchanged object keys ("# (N
// unchanged attributes hidden)") and unchanged list elements except one
// on each side of a change ("# (N unchanged elements hidden)"), so a
// one-field change prints about ten lines for its item.
//
// The renderers still compare every list with an LCS of
// len(before)·len(after) cells, changed or not (a 10,000-line list took
// Terraform 1.5.7 0.9 GiB and 3.5 s to render unchanged). An object of
// more than ChunkAbove lines (a CRD) is therefore a list of chunks,
// {"lines": [...]}, cut where the content says (a line whose hash hits
// chunkMask, at least chunkMin and at most chunkMax lines), so an added
// or removed line moves no other chunk's boundary; the renderers pair a
// changed chunk with its old self and show its changed lines with
// context, and the outer list is about twelve times shorter.

// ChunkAbove is the most lines an object's text holds as a plain list.
const ChunkAbove = 500

// Chunks are small because the renderers show the unchanged chunk on
// each side of a changed one whole: about 12 lines on average.
const (
	chunkMin  = 4
	chunkMax  = 32
	chunkMask = 7 // a cut after one line in 8, on average
)

// Chunk is a run of an object's lines in the chunked form.
type Chunk struct {
	Lines []string `json:"lines"`
}

// ItemShape is an item's text (Join's output, or a "# no preview" note) as
// deploy_item_objects holds it: header → lines (or chunks). A text Join
// did not make, and which would therefore not come back byte for byte,
// stays a string, as all texts were before.
func ItemShape(text string) any {
	docs, ok := splitItem(text)
	if !ok {
		return text
	}
	out := make(map[string]any, len(docs))
	for _, d := range docs {
		if len(d.lines) > ChunkAbove {
			out[d.key] = chunks(d.lines)
		} else {
			out[d.key] = d.lines
		}
	}
	return out
}

// ItemText is the item's text back from what ItemShape made of it, as
// encoding/json decodes it into an any (or from a string: the shape
// before issue 34, which states of schema version 0 hold). One decoding
// of the whole attribute into plain values is the cheapest way back.
func ItemText(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case map[string]any:
		docs := make([]document, 0, len(v))
		for k, o := range v {
			lines, err := objectLines(o)
			if err != nil {
				return "", err
			}
			docs = append(docs, document{key: k, lines: lines})
		}
		sort.Slice(docs, func(i, j int) bool { return docs[i].key < docs[j].key })
		return joinItem(docs), nil
	}
	return "", errors.New("an item is neither a text nor an object of objects")
}

// document is one object of an item's text: its header and its lines.
type document struct {
	key   string
	lines []string
}

// splitItem reads text as Join writes it: documents separated by "---",
// each headed by "# <key>", keys in order and unique, every line ending
// in a newline. It checks that joinItem gives text back.
func splitItem(text string) ([]document, bool) {
	if text == "" {
		return nil, true
	}
	if !strings.HasSuffix(text, "\n") {
		return nil, false
	}
	var docs []document
	for _, part := range strings.Split(strings.TrimSuffix(text, "\n"), "\n---\n") {
		head, body, _ := strings.Cut(part, "\n")
		key, ok := strings.CutPrefix(head, "# ")
		if !ok || (len(docs) > 0 && key <= docs[len(docs)-1].key) {
			return nil, false
		}
		lines := []string{}
		if body != "" || strings.Contains(part, "\n") {
			lines = strings.Split(body, "\n")
		}
		docs = append(docs, document{key: key, lines: lines})
	}
	return docs, joinItem(docs) == text
}

// joinItem writes documents as Join does.
func joinItem(docs []document) string {
	var b strings.Builder
	for i, d := range docs {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.WriteString("# " + d.key + "\n")
		for _, l := range d.lines {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// chunks cuts lines where their content says.
func chunks(lines []string) []Chunk {
	var out []Chunk
	start := 0
	for i, l := range lines {
		n := i + 1 - start
		if n >= chunkMax || (n >= chunkMin && cutAfter(l)) {
			out = append(out, Chunk{Lines: lines[start : i+1]})
			start = i + 1
		}
	}
	if start < len(lines) {
		out = append(out, Chunk{Lines: lines[start:]})
	}
	return out
}

func cutAfter(line string) bool {
	h := fnv.New32a()
	h.Write([]byte(line)) // never fails
	return h.Sum32()&chunkMask == 0
}

// objectLines reads one object's value: a list of lines or of chunks.
func objectLines(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, errors.New("an object is not a list")
	}
	lines := make([]string, 0, len(list))
	for _, e := range list {
		switch e := e.(type) {
		case string:
			lines = append(lines, e)
		case map[string]any:
			cl, ok := e["lines"].([]any)
			if !ok || len(e) != 1 {
				return nil, errors.New("an object's chunk is not {\"lines\": [...]}")
			}
			for _, l := range cl {
				s, ok := l.(string)
				if !ok {
					return nil, errors.New("a chunk's line is not a string")
				}
				lines = append(lines, s)
			}
		default:
			return nil, errors.New("an object's element is neither a line nor a chunk")
		}
	}
	return lines, nil
}
