package landscaperrecording

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
)

// mapStrings replaces every string of obj by fn's result: the plain
// fields, and the strings inside the encodings Landscaper and Helm keep
// data in — a Secret's data (base64; JSON text is walked as JSON), a Helm
// release record (base64 of gzip of JSON, itself in a Secret) and an
// Execution's spec.deployItemsCompressed (gzip of JSON). An encoded value
// is written again only when one of its strings changed, so what fn
// leaves alone keeps its bytes. Map keys are mapped too.
//
// Recording and replaying both go through it: the recorder to replace
// the kubeconfig with a placeholder, the replay to rename namespaces,
// put the kubeconfig back and give references the new UIDs.
func mapStrings(obj *unstructured.Unstructured, fn func(string) string) error {
	// The encoded fields are mapped on their own and kept away from the
	// generic walk, which would otherwise see their base64 text.
	var path []string
	var encoded any
	var err error
	switch {
	case obj.GetAPIVersion() == "v1" && obj.GetKind() == "Secret":
		path = []string{"data"}
		encoded, err = mapSecretData(obj, fn)
	case obj.GetAPIVersion() == APIVersion && obj.GetKind() == "Execution":
		path = []string{"spec", "deployItemsCompressed"}
		encoded, err = mapCompressedTemplates(obj, fn)
	}
	if err != nil {
		return fmt.Errorf("%s %s/%s: %w", obj.GetKind(), obj.GetNamespace(), obj.GetName(), err)
	}
	if encoded != nil {
		unstructured.RemoveNestedField(obj.Object, path...)
	}
	mapped, _ := walk(obj.Object, fn)
	obj.Object, _ = mapped.(map[string]any)
	if encoded != nil {
		return unstructured.SetNestedField(obj.Object, encoded, path...)
	}
	return nil
}

// walk maps the strings of a JSON-shaped value and reports whether any
// changed.
func walk(v any, fn func(string) string) (any, bool) {
	switch t := v.(type) {
	case string:
		s := fn(t)
		return s, s != t
	case map[string]any:
		changed := false
		out := make(map[string]any, len(t))
		for k, e := range t {
			mk := fn(k)
			me, c := walk(e, fn)
			out[mk] = me
			changed = changed || c || mk != k
		}
		return out, changed
	case []any:
		changed := false
		out := make([]any, len(t))
		for i, e := range t {
			var c bool
			out[i], c = walk(e, fn)
			changed = changed || c
		}
		return out, changed
	default:
		return v, false
	}
}

// helmReleaseType is the Secret type of Helm's release records.
const helmReleaseType = "helm.sh/release.v1"

// maxDecoded bounds what a recorded value may inflate to.
const maxDecoded = 64 << 20

// mapSecretData maps the decoded values of a Secret's data: a Helm
// release record as the JSON inside it, JSON text as JSON, other UTF-8
// text as one string; binary values stay as they are. It returns the new
// data.
func mapSecretData(obj *unstructured.Unstructured, fn func(string) string) (any, error) {
	data, found, err := unstructured.NestedMap(obj.Object, "data")
	if err != nil || !found {
		return nil, err
	}
	helm := obj.Object["type"] == helmReleaseType
	for k, v := range data {
		s, ok := v.(string)
		if !ok {
			return nil, fmt.Errorf("data.%s: not a string", k)
		}
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, fmt.Errorf("data.%s: not base64", k)
		}
		var mapped []byte
		var changed bool
		if helm && k == "release" {
			mapped, changed, err = mapHelmRelease(raw, fn)
		} else {
			mapped, changed, err = mapText(raw, fn)
		}
		if err != nil {
			return nil, fmt.Errorf("data.%s: %w", k, err)
		}
		if changed {
			data[k] = base64.StdEncoding.EncodeToString(mapped)
		}
	}
	return data, nil
}

// mapText maps a text value: JSON as a JSON document, anything else as
// one string. Binary data is left alone.
func mapText(raw []byte, fn func(string) string) ([]byte, bool, error) {
	if !utf8.Valid(raw) {
		return raw, false, nil
	}
	if doc, err := decodeJSON(raw); err == nil {
		mapped, changed := walk(doc, fn)
		if !changed {
			return raw, false, nil
		}
		out, err := json.Marshal(mapped)
		return out, true, err
	}
	s := fn(string(raw))
	return []byte(s), s != string(raw), nil
}

// mapHelmRelease maps a Helm release record: base64 text of (usually
// gzipped) JSON, as Helm's Secret storage writes it.
func mapHelmRelease(raw []byte, fn func(string) string) ([]byte, bool, error) {
	inner, err := base64.StdEncoding.DecodeString(string(raw))
	if err != nil {
		return nil, false, fmt.Errorf("the Helm release record: not base64")
	}
	gzipped := bytes.HasPrefix(inner, []byte{0x1f, 0x8b})
	if gzipped {
		if inner, err = compress.Gunzip(inner, maxDecoded); err != nil {
			return nil, false, fmt.Errorf("the Helm release record: %w", err)
		}
	}
	doc, err := decodeJSON(inner)
	if err != nil {
		return nil, false, fmt.Errorf("the Helm release record: not JSON")
	}
	mapped, changed := walk(doc, fn)
	if !changed {
		return raw, false, nil
	}
	out, err := json.Marshal(mapped)
	if err != nil {
		return nil, false, err
	}
	if gzipped {
		out = gzipBytes(out)
	}
	return []byte(base64.StdEncoding.EncodeToString(out)), true, nil
}

// mapCompressedTemplates maps the deploy item templates an Execution
// keeps gzipped in spec.deployItemsCompressed (base64 in JSON) and
// returns the field's new value.
func mapCompressedTemplates(obj *unstructured.Unstructured, fn func(string) string) (any, error) {
	s, found, err := unstructured.NestedString(obj.Object, "spec", "deployItemsCompressed")
	if err != nil || !found {
		return nil, err
	}
	zipped, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("spec.deployItemsCompressed: not base64")
	}
	raw, err := compress.Gunzip(zipped, maxDecoded)
	if err != nil {
		return nil, fmt.Errorf("spec.deployItemsCompressed: %w", err)
	}
	doc, err := decodeJSON(raw)
	if err != nil {
		return nil, fmt.Errorf("spec.deployItemsCompressed: not JSON")
	}
	mapped, changed := walk(doc, fn)
	if !changed {
		return s, nil
	}
	out, err := json.Marshal(mapped)
	if err != nil {
		return nil, err
	}
	return base64.StdEncoding.EncodeToString(gzipBytes(out)), nil
}

func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, _ = zw.Write(b) // a bytes.Buffer does not fail
	_ = zw.Close()
	return buf.Bytes()
}

// decodeJSON decodes one JSON document, numbers as json.Number so that
// writing it again keeps them as they were.
func decodeJSON(raw []byte) (any, error) {
	var doc any
	if err := api.DecodeExact(raw, &doc); err != nil {
		return nil, err
	}
	return doc, nil
}
