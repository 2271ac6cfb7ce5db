package preview

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// roundTrip shapes text, encodes it as deploy_item_objects would and reads
// it back.
func roundTrip(t *testing.T, text string) (json.RawMessage, string) {
	t.Helper()
	raw, err := json.Marshal(ItemShape(text))
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	back, err := ItemText(v)
	if err != nil {
		t.Fatalf("ItemText(%s): %v", raw, err)
	}
	return raw, back
}

// TestItemShape_RoundTrip: every text Join makes (notes, duplicates of
// one ref, literal blocks, an empty item, a "no preview" note) comes back
// byte for byte, and is held as an object of line lists.
func TestItemShape_RoundTrip(t *testing.T) {
	const id = "root/app"
	objs := []deployer.PreviewObject{deployment(3),
		{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "apps"},
			"data": map[string]any{"script": "#!/bin/sh\n---\necho hi\n\n", "empty": ""}}},
		{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c", "namespace": "apps"}}},
	}
	joined := Join(ItemPrefix(id), render(t, NewRenderer(nil, nil), id, objs...))
	for _, text := range []string{joined, "", "# no preview: chart not found\n# second line\n"} {
		raw, back := roundTrip(t, text)
		if back != text {
			t.Errorf("round trip of\n%s\ngave\n%s", text, back)
		}
		if raw[0] != '{' {
			t.Errorf("%q is held as %s, want an object", text, raw)
		}
	}
	var shaped map[string][]string
	raw, _ := roundTrip(t, joined)
	if err := json.Unmarshal(raw, &shaped); err != nil {
		t.Fatal(err)
	}
	if got := shaped["v1 ConfigMap apps/c (2)"]; !reflect.DeepEqual(got[:2], []string{"apiVersion: v1", "kind: ConfigMap"}) {
		t.Errorf("the second ConfigMap c is %q", got)
	}
}

// TestItemShape_NotJoined: a text Join did not write (no header, keys out
// of order or repeated, no final newline) stays one string and still
// comes back.
func TestItemShape_NotJoined(t *testing.T) {
	for _, text := range []string{"plain", "# b\nx: 1\n---\n# a\nx: 2\n", "# a\n---\n# a\n", "# a\nx: 1"} {
		raw, back := roundTrip(t, text)
		if back != text || raw[0] != '"' {
			t.Errorf("%q: held as %s, read back as %q", text, raw, back)
		}
	}
}

// TestItemText_VersionZero: the one string per item of schema version 0
// reads as it is; values of neither shape are errors.
func TestItemText_VersionZero(t *testing.T) {
	if got, err := ItemText("# v1 ConfigMap a/b\nx: 1\n"); err != nil || got != "# v1 ConfigMap a/b\nx: 1\n" {
		t.Errorf("got %q, %v", got, err)
	}
	for _, bad := range []string{`1`, `{"k":1}`, `{"k":[1]}`, `{"k":[{"lines":[1]}]}`, `{"k":[{"lines":[], "x":1}]}`, `[]`} {
		var v any
		if err := json.Unmarshal([]byte(bad), &v); err != nil {
			t.Fatal(err)
		}
		if got, err := ItemText(v); err == nil {
			t.Errorf("ItemText(%s) = %q, want an error", bad, got)
		}
	}
}

// bigObject is an object's text of n lines, like a CRD's schema.
func bigObject(n int) []string {
	lines := make([]string, n)
	for i := range lines {
		lines[i] = fmt.Sprintf("%*sproperty%d:", 2*(i%7), "", i)
	}
	return lines
}

// TestItemShape_ChunksBigObject: an object above ChunkAbove lines is held
// as chunks of chunkMin to chunkMax lines, which come back as the text;
// a line inserted in the middle changes one chunk and moves no other
// chunk's boundary.
func TestItemShape_ChunksBigObject(t *testing.T) {
	lines := bigObject(5000)
	text := "# apiextensions.k8s.io/v1 CustomResourceDefinition x\n" + strings.Join(lines, "\n") + "\n"
	raw, back := roundTrip(t, text)
	if back != text {
		t.Fatal("a chunked object did not come back")
	}
	var shaped map[string][]Chunk
	if err := json.Unmarshal(raw, &shaped); err != nil {
		t.Fatalf("not held as chunks: %v", err)
	}
	before := shaped["apiextensions.k8s.io/v1 CustomResourceDefinition x"]
	for i, c := range before {
		if len(c.Lines) > chunkMax || (len(c.Lines) < chunkMin && i < len(before)-1) {
			t.Errorf("chunk %d has %d lines", i, len(c.Lines))
		}
	}
	if len(before) > 5000/chunkMin || len(before) < 5000/chunkMax {
		t.Errorf("%d chunks for 5,000 lines", len(before))
	}
	inserted := append(append(append([]string{}, lines[:2500]...), "  added: true"), lines[2500:]...)
	after := chunks(inserted)
	seen := map[string]bool{}
	for _, c := range before {
		seen[strings.Join(c.Lines, "\n")] = true
	}
	changed := 0
	for _, c := range after {
		if !seen[strings.Join(c.Lines, "\n")] {
			changed++
		}
	}
	if changed > 2 || len(after) > len(before)+1 {
		t.Errorf("one inserted line changed %d chunks (%d → %d)", changed, len(before), len(after))
	}
	if small := ItemShape("# v1 ConfigMap a/b\n" + strings.Join(bigObject(ChunkAbove), "\n") + "\n"); reflect.TypeOf(small.(map[string]any)["v1 ConfigMap a/b"]) != reflect.TypeOf([]string{}) {
		t.Errorf("an object of ChunkAbove lines is held as %T", small)
	}
}

// TestItemShape_Masked: a Secret's values stay masked in the shaped form,
// which holds no secret value nor its base64 form.
func TestItemShape_Masked(t *testing.T) {
	const password, token = "hunter2-very-secret", "tok-1234567890"
	var s Sensitive
	s.Add(password)
	text := Join(ItemPrefix("root/app"), render(t, NewRenderer(NewMarks(testKey, nil, nil), &s), "root/app", secretObjects(password, token)...))
	raw, _ := roundTrip(t, text)
	for _, v := range []string{password, b64(password), token, b64(token)} {
		if strings.Contains(string(raw), v) {
			t.Errorf("%q appears in %s", v, raw)
		}
	}
	if !strings.Contains(string(raw), `"  password: (sensitive value v1)"`) {
		t.Errorf("the Secret's password line is not masked in %s", raw)
	}
}

// BenchmarkShape_1000 encodes and decodes 1,000 typical items' texts as
// deploy_item_objects holds them (what a refresh and a changing plan
// read and write), in this shape ("Lines") and as one string per item,
// the shape before ("Text"): the ratio is what the shape costs.
func BenchmarkShape_1000(b *testing.B) {
	texts := map[string]string{}
	r := NewRenderer(nil, nil)
	for i := range 1000 {
		id := fmt.Sprintf("root/sub-%d/app", i)
		out, err := r.Item(id, benchItem(i))
		if err != nil {
			b.Fatal(err)
		}
		texts[id] = Join(ItemPrefix(id), out)
	}
	shapes := map[string]func(string) any{"Lines": ItemShape, "Text": func(t string) any { return t }}
	for _, name := range []string{"Lines", "Text"} {
		shape := shapes[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var size int
			for b.Loop() {
				shaped := make(map[string]any, len(texts))
				for p, t := range texts {
					shaped[p] = shape(t)
				}
				raw, err := json.Marshal(shaped)
				if err != nil {
					b.Fatal(err)
				}
				size = len(raw)
				var items map[string]any
				if err := json.Unmarshal(raw, &items); err != nil {
					b.Fatal(err)
				}
				for _, v := range items {
					if _, err := ItemText(v); err != nil {
						b.Fatal(err)
					}
				}
			}
			b.ReportMetric(float64(size), "json-bytes")
		})
	}
}
