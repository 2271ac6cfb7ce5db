package preview

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	k8syaml "sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/parallel"
)

// Renderer turns deploy items' objects into their canonical text. The
// same objects, sensitive values and recorded marks always give the same
// bytes. It is safe for concurrent use.
type Renderer struct {
	masker masker
}

// NewRenderer returns a renderer that masks with marks (nil: fresh marks
// without a key) and sensitive (nil: none registered).
func NewRenderer(marks *Marks, sensitive *Sensitive) *Renderer {
	if marks == nil {
		marks = NewMarks(nil, nil, nil)
	}
	return &Renderer{masker: masker{marks: marks, sensitive: sensitive}}
}

// Item returns the canonical text of each of an item's objects by Key. Two
// objects with one ref (a hook and a manifest of the same name) get keys
// " (2)", " (3)" … in the deployer's order. The objects are encoded up to
// GOMAXPROCS at a time (a chart's CRDs are megabytes of YAML); the texts
// and the first error, in the objects' order, are what one at a time
// gives.
func (r *Renderer) Item(itemID string, objs []deployer.PreviewObject) (map[string]string, error) {
	keys := make([]string, 0, len(objs))
	refs := make([]deployer.ObjectRef, 0, len(objs))
	taken := make(map[string]bool, len(objs))
	var refErr error
	for i, o := range objs {
		ref, err := refOf(o.Object)
		if err != nil {
			refErr = fmt.Errorf("deploy item %s: object %d: %w", itemID, i, err)
			break // the objects before it are encoded: one of them may fail first
		}
		key := Key(itemID, ref)
		for n := 2; taken[key]; n++ {
			key = Key(itemID, ref) + " (" + strconv.Itoa(n) + ")"
		}
		taken[key] = true
		keys, refs = append(keys, key), append(refs, ref)
	}
	texts := make([]string, len(keys))
	errs := make([]error, len(keys))
	parallel.Each(len(keys), func(i int) { texts[i], errs[i] = r.object(keys[i], refs[i], objs[i]) })
	out := make(map[string]string, len(keys))
	for i, key := range keys {
		if errs[i] != nil {
			return nil, fmt.Errorf("deploy item %s: %s: %w", itemID, refs[i].Versioned(), errs[i])
		}
		out[key] = texts[i]
	}
	if refErr != nil {
		return nil, refErr
	}
	return out, nil
}

// Join joins texts (as Item returns them) into one multi-document YAML
// stream in key order, each document headed by a comment with its key
// less prefix: Join(ItemPrefix(id), texts) is one item's text, whose
// headers name the objects; Join("", texts) a whole landscape's.
func Join(prefix string, texts map[string]string) string {
	keys := make([]string, 0, len(texts))
	size := 0
	for k, v := range texts {
		keys = append(keys, k)
		size += len(k) + len(v) + 7
	}
	sort.Strings(keys)
	var b strings.Builder
	b.Grow(size)
	for i, k := range keys {
		if i > 0 {
			b.WriteString("---\n")
		}
		b.WriteString("# " + strings.TrimPrefix(k, prefix) + "\n")
		b.WriteString(texts[k])
	}
	return b.String()
}

// MaxObjectText bounds one object's text. A larger object (a chart's
// bundle of CRDs) would make the state grow by its size at every item
// that deploys it; it is shown by its header and a digest of its masked
// text instead, so the plan still says that it changes.
const MaxObjectText = 256 << 10

// summary is the text of an object larger than MaxObjectText.
func summary(note string, ref deployer.ObjectRef, text string) string {
	sum := sha256.Sum256([]byte(text))
	var b strings.Builder
	for _, line := range strings.Split(note, "\n") {
		if line != "" {
			b.WriteString("# " + line + "\n")
		}
	}
	fmt.Fprintf(&b, "apiVersion: %s\nkind: %s\nmetadata:\n  name: %s\n", ref.APIVersion, ref.Kind, ref.Name)
	if ref.Namespace != "" {
		fmt.Fprintf(&b, "  namespace: %s\n", ref.Namespace)
	}
	fmt.Fprintf(&b, "# %d bytes, too large to show field by field; SHA-256 of the masked text: %s\n", len(text), hex.EncodeToString(sum[:]))
	return b.String()
}

// object is one object's canonical YAML: its note as a comment, then
// apiVersion, kind, metadata (name, namespace, labels, annotations, the
// rest by name), then the other fields by name; below that, maps by key,
// except that "name" leads in maps that are list items (containers,
// ports …). Multi-line strings are literal blocks, so a plan diffs them
// line by line.
func (r *Renderer) object(key string, ref deployer.ObjectRef, o deployer.PreviewObject) (string, error) {
	obj, err := normalize(o.Object)
	if err != nil {
		return "", err
	}
	e := &encoder{m: &r.masker, key: key}
	if isSecret(ref) {
		e.secret = secretData(obj)
	}
	root := e.node(obj, nil, levelTop)
	var buf bytes.Buffer
	for _, line := range strings.Split(o.Note, "\n") {
		if line != "" {
			buf.WriteString("# " + line + "\n")
		}
	}
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(root); err != nil {
		return "", err
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	if buf.Len() > MaxObjectText {
		return summary(o.Note, ref, buf.String()), nil
	}
	return buf.String(), nil
}

// level says which ordering a map gets.
type level int

const (
	levelTop level = iota
	levelMetadata
	levelListItem
	levelOther
)

// leading are the keys that come first, in this order, at each level.
var leading = map[level][]string{
	levelTop:      {"apiVersion", "kind", "metadata"},
	levelMetadata: {"name", "namespace", "labels", "annotations"},
	levelListItem: {"name"},
}

// encoder builds one object's YAML node tree, masking as it goes.
type encoder struct {
	m      *masker
	key    string
	secret map[string]string // a Secret's plain data by key; nil for other objects
}

func (e *encoder) loc(path []string) string { return e.key + "\x00" + strings.Join(path, "\x00") }

func (e *encoder) node(v any, path []string, lvl level) *yaml.Node {
	switch x := v.(type) {
	case map[string]any:
		if len(path) > 0 && isSecretObject(x) {
			return e.nestedSecret(x, path)
		}
		return e.mapping(x, path, lvl)
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for i, item := range x {
			n.Content = append(n.Content, e.node(item, append(path[:len(path):len(path)], strconv.Itoa(i)), levelListItem))
		}
		return n
	case string:
		return e.str(x, path)
	case json.Number:
		return e.number(x.String(), path)
	case int:
		return e.number(strconv.Itoa(x), path)
	case int64:
		return e.number(strconv.FormatInt(x, 10), path)
	case float64:
		b, err := json.Marshal(x) // JSON's form, so 3.0 reads as 3 like json.Number("3")
		if err != nil {
			return e.plain(fmt.Sprint(x)) // NaN or Inf: never from decoded JSON or YAML
		}
		return e.number(string(b), path)
	case bool:
		if e.m.sensitive.boolAt(path) { // a Secret import's boolean, by its key path
			return e.plain(e.m.marks.Marker(e.loc(path), strconv.FormatBool(x)))
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Value: strconv.FormatBool(x)}
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Value: "null"}
	}
	return e.str(fmt.Sprint(v), path) // normalize leaves nothing else (plainJSON)
}

func (e *encoder) mapping(m map[string]any, path []string, lvl level) *yaml.Node {
	if lvl == levelTop && e.secret != nil {
		m = secretMasked(m, e.secret)
	}
	first := leading[lvl]
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		pi, pj := rank(first, keys[i]), rank(first, keys[j])
		if pi != pj {
			return pi < pj
		}
		return keys[i] < keys[j]
	})
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, k := range keys {
		childLevel := levelOther
		if lvl == levelTop && k == "metadata" {
			childLevel = levelMetadata
		}
		p := append(path[:len(path):len(path)], k)
		var value *yaml.Node
		switch {
		case e.secret != nil && lvl == levelTop && k == "data":
			value = e.secretData(p)
		case e.secret != nil && len(p) == 3 && p[0] == "metadata" && p[1] == "annotations" && k == lastApplied:
			value = e.plain(e.m.marks.Marker(e.loc(p), fmt.Sprint(m[k])))
		default:
			value = e.node(m[k], p, childLevel)
		}
		n.Content = append(n.Content, scalar(k), value)
	}
	return n
}

// isSecretObject reports whether m is a core Secret's manifest.
func isSecretObject(m map[string]any) bool {
	return m["apiVersion"] == "v1" && m["kind"] == "Secret"
}

// nestedSecret is a Secret's manifest inside another object — a deploy
// item shown by its configuration (ConfigObject: the manifests of a
// kubernetes-manifest item routed to an external deployer), a List —
// masked as a Secret at the top is: its data keys with markers, at
// locations of its own below path.
func (e *encoder) nestedSecret(m map[string]any, path []string) *yaml.Node {
	obj := make(map[string]any, len(m)) // secretData folds stringData away: not in the caller's map
	for k, v := range m {
		obj[k] = v
	}
	sub := &encoder{m: e.m, key: e.loc(path), secret: secretData(obj)}
	return sub.mapping(obj, nil, levelTop)
}

// secretData is a Secret's data: each key with its value's marker.
func (e *encoder) secretData(path []string) *yaml.Node {
	keys := make([]string, 0, len(e.secret))
	for k := range e.secret {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for _, k := range keys {
		marker := e.m.secretValue(e.loc(append(path[:len(path):len(path)], k)), e.secret[k])
		n.Content = append(n.Content, scalar(k), e.plain(marker))
	}
	return n
}

// secretMasked is a Secret's top level with data present whenever the
// Secret has any (stringData was folded into it).
func secretMasked(m map[string]any, plain map[string]string) map[string]any {
	if len(plain) > 0 {
		if _, ok := m["data"]; !ok {
			m["data"] = map[string]any{}
		}
	}
	return m
}

// number is a number scalar in its decimal form s, or its marker when s
// holds a sensitive value: a Secret import's {"pin": 73920184} put into a
// numeric field is registered in its text forms (redact.Secrets.AddValue)
// and must be masked here as in a string. The whole number goes, not the
// digits that match: a part of a number would tell the rest.
func (e *encoder) number(s string, path []string) *yaml.Node {
	if e.m.sensitive.find(s) == nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Value: s}
	}
	return e.plain(e.m.marks.Marker(e.loc(path), s))
}

func (e *encoder) str(s string, path []string) *yaml.Node {
	return e.plain(e.m.text(e.loc(path), s))
}

// plain is a string scalar: quoted where YAML would read it as another
// type, a literal block when it has several lines.
func (e *encoder) plain(s string) *yaml.Node {
	n := scalar(s)
	if strings.Contains(s, "\n") {
		n.Style = yaml.LiteralStyle
	}
	return n
}

// scalar is a string scalar on one line (a map key, or a value): quoted
// where a YAML reader would take it for another type. The encoder quotes
// by YAML 1.2, which reads Off, yes, y, ~ or 0755 written plain as
// strings; Kubernetes reads YAML 1.1 (sigs.k8s.io/yaml), which reads
// them as false, true, true, null and 493, so those are quoted too.
func scalar(s string) *yaml.Node {
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if yaml11NotString(s) {
		n.Style = yaml.DoubleQuotedStyle
	}
	return n
}

// yaml11Words are the plain scalars YAML 1.1 reads as booleans or null.
var yaml11Words = map[string]bool{}

func init() {
	for _, w := range strings.Fields("y yes true on n no false off null ~") {
		yaml11Words[w] = true
		yaml11Words[strings.ToUpper(w)] = true
		yaml11Words[strings.ToUpper(w[:1])+w[1:]] = true
	}
}

// yaml11NotString says whether a YAML 1.1 reader takes s, written plain,
// for something else than the string s. Words are looked up; what starts
// like a number (0x1F, 012, 1e3, 1_000, .5, +1, .inf) or like a YAML
// indicator is read by Kubernetes' own reader, the reference.
func yaml11NotString(s string) bool {
	if s == "" || strings.Contains(s, "\n") {
		return false // quoted by the encoder, or a literal block
	}
	if s == "<<" {
		return true // as a key, YAML 1.1's merge key
	}
	switch c := s[0]; {
	case c >= '0' && c <= '9', c == '+', c == '-', c == '.', c == '=':
		var v any
		if err := k8syaml.Unmarshal([]byte(s), &v); err != nil {
			return true
		}
		str, ok := v.(string)
		return !ok || str != s
	}
	return yaml11Words[s]
}

func rank(first []string, k string) int {
	for i, f := range first {
		if f == k {
			return i
		}
	}
	return len(first)
}
