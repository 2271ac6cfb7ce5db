package landscaperyaml

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/template"
)

// maxYAMLNodes bounds a manifest stream's nodes with YAML aliases
// expanded, so a few bytes of nested aliases cannot exhaust memory.
const maxYAMLNodes = 1_000_000

// Document is one object of a manifest stream.
type Document struct {
	Kind      string
	Name      string
	Namespace string
	// Source names the stream the document came from ("manifest",
	// "manifest_objects") and Index its position there (from 0).
	Source string
	Index  int
	// YAML is the document's text as written, ending in one newline.
	YAML string
	json []byte
}

// String names the document in errors: `DataObject "replicas"
// (manifest_objects, document 2)`.
func (d Document) String() string {
	name := d.Name
	if d.Namespace != "" {
		name = d.Namespace + "/" + d.Name
	}
	return fmt.Sprintf("%s %q (%s, document %d)", d.Kind, name, d.Source, d.Index+1)
}

// Set is the objects of manifest streams by kind, in the order written.
type Set struct {
	docs []Document
}

// Parse splits a multi-document YAML stream into Landscaper objects.
// Empty documents are skipped. Every other document must be an
// Installation, DataObject, Target or Context of APIVersion with a
// metadata.name, and its fields must be ones Landscaper defines: an
// unknown field is an error naming its path. source names the stream in
// errors. Error messages never quote values (Targets hold credentials).
func Parse(source, stream string) (*Set, error) {
	if err := template.CheckYAMLAliases(source, []byte(stream), maxYAMLNodes); err != nil {
		return nil, err
	}
	r := utilyaml.NewYAMLReader(bufio.NewReader(strings.NewReader(stream)))
	s := &Set{}
	for i := 0; ; i++ {
		raw, err := r.Read()
		if errors.Is(err, io.EOF) {
			return s, s.checkUnique()
		}
		if err != nil {
			return nil, fmt.Errorf("%s: document %d: %s", source, i+1, template.YAMLErrorWithoutValues(err))
		}
		doc, ok, err := parseDocument(source, i, raw)
		if err != nil {
			return nil, err
		}
		if ok {
			s.docs = append(s.docs, doc)
		}
	}
}

func parseDocument(source string, index int, raw []byte) (Document, bool, error) {
	// The text as written, ending in one newline whatever separated it
	// from the next document.
	doc := Document{Source: source, Index: index, YAML: strings.TrimRight(string(raw), "\n\t ") + "\n"}
	where := fmt.Sprintf("%s: document %d", source, index+1)
	j, err := yaml.YAMLToJSONStrict(raw)
	if err != nil {
		return doc, false, fmt.Errorf("%s: %s", where, template.YAMLErrorWithoutValues(err))
	}
	if t := bytes.TrimSpace(j); len(t) == 0 || string(t) == "null" {
		return doc, false, nil
	}
	var generic map[string]any
	if err := json.Unmarshal(j, &generic); err != nil {
		return doc, false, fmt.Errorf("%s: not an object", where)
	}
	var head struct {
		typeMeta
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(j, &head); err != nil {
		return doc, false, fmt.Errorf("%s: apiVersion, kind or metadata is not of the expected type", where)
	}
	doc.Kind, doc.Name, doc.Namespace, doc.json = head.Kind, head.Metadata.Name, head.Metadata.Namespace, j
	shape, known := kinds[head.Kind]
	switch {
	case head.APIVersion != APIVersion:
		return doc, false, fmt.Errorf("%s: apiVersion must be %s, not %q", where, APIVersion, head.APIVersion)
	case !known:
		return doc, false, fmt.Errorf("%s: kind %q is not one of Installation, DataObject, Target, Context", where, head.Kind)
	case head.Metadata.Name == "":
		return doc, false, fmt.Errorf("%s: %s without metadata.name", where, head.Kind)
	}
	if unknown := blueprint.UnknownFields(generic, shape); len(unknown) > 0 {
		return doc, false, fmt.Errorf("%s: %s (not a field of Landscaper's %s)", doc, strings.Join(unknown, "; "), head.Kind)
	}
	return doc, true, nil
}

// kinds maps each kind to the Go type declaring its fields.
var kinds = map[string]reflect.Type{
	KindInstallation: reflect.TypeOf(installation{}),
	KindDataObject:   reflect.TypeOf(dataObject{}),
	KindTarget:       reflect.TypeOf(target{}),
	KindContext:      reflect.TypeOf(lsContext{}),
}

// checkUnique refuses two objects of one kind with the same name and
// namespace: which one an Installation meant would be a guess.
func (s *Set) checkUnique() error {
	seen := map[string]Document{}
	for _, d := range s.docs {
		key := d.Kind + "\x00" + d.Namespace + "\x00" + d.Name
		if first, dup := seen[key]; dup {
			return fmt.Errorf("%s: the same kind and name as %s", d, first)
		}
		seen[key] = d
	}
	return nil
}

// Documents returns the documents of one kind, in the order written.
func (s *Set) Documents(kind string) []Document {
	var out []Document
	for _, d := range s.docs {
		if d.Kind == kind {
			out = append(out, d)
		}
	}
	return out
}

// lookup finds the object of kind named name that an installation in
// namespace ns sees: one in ns, or else one without a namespace (it goes
// wherever it is applied, as with `kubectl apply -n`).
func (s *Set) lookup(kind, name, ns string) (Document, bool) {
	var loose *Document
	for i, d := range s.docs {
		if d.Kind != kind || d.Name != name {
			continue
		}
		if d.Namespace == ns {
			return d, true
		}
		if d.Namespace == "" {
			loose = &s.docs[i]
		}
	}
	if loose != nil {
		return *loose, true
	}
	return Document{}, false
}

// decode unmarshals the document into its Go type.
func (d Document) decode(into any) error {
	if err := json.Unmarshal(d.json, into); err != nil {
		return fmt.Errorf("%s: %s", d, template.YAMLErrorWithoutValues(err))
	}
	return nil
}

// Annotation returns the value of one of the document's annotations, ""
// when it has none or cannot be read.
func (d Document) Annotation(key string) string {
	var head struct {
		Metadata struct {
			Annotations map[string]string `json:"annotations"`
		} `json:"metadata"`
	}
	if json.Unmarshal(d.json, &head) != nil {
		return ""
	}
	return head.Metadata.Annotations[key]
}
