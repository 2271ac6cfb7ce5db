package preview

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

func deployment(replicas any) deployer.PreviewObject {
	return deployer.PreviewObject{Note: "policy: keep (never deleted)", Object: map[string]any{
		"spec": map[string]any{"replicas": replicas, "template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"image": "nginx:1.27", "name": "web", "ports": []any{map[string]any{"containerPort": 80, "name": "http"}}}},
		}}},
		"metadata":   map[string]any{"namespace": "apps", "name": "web", "annotations": map[string]any{"a": "1"}, "labels": map[string]any{"app": "web"}, "finalizers": []any{"x"}},
		"kind":       "Deployment",
		"apiVersion": "apps/v1",
		"status":     map[string]any{},
	}}
}

func render(t testing.TB, r *Renderer, itemID string, objs ...deployer.PreviewObject) map[string]string {
	t.Helper()
	out, err := r.Item(itemID, objs)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestItem_CanonicalForm: the exact text of one object — note, header
// fields first, metadata's known fields first, "name" first in list
// items, the rest by name.
func TestItem_CanonicalForm(t *testing.T) {
	got := render(t, NewRenderer(nil, nil), "root/app", deployment(3))
	want := map[string]string{"root/app: apps/v1 Deployment apps/web": `# policy: keep (never deleted)
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: apps
  labels:
    app: web
  annotations:
    a: "1"
  finalizers:
    - x
spec:
  replicas: 3
  template:
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - name: http
              containerPort: 80
status: {}
`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got\n%s\nwant\n%s", got["root/app: apps/v1 Deployment apps/web"], want["root/app: apps/v1 Deployment apps/web"])
	}
}

// TestItem_ByteIdentical: the same objects give the same bytes, however
// often they are rendered and whatever Go types the deployer built them
// from (map order is random in Go; numbers come as int, int64, float64
// or json.Number).
func TestItem_ByteIdentical(t *testing.T) {
	first := render(t, NewRenderer(nil, nil), "root/app", deployment(3))
	for i, replicas := range []any{int64(3), 3.0, json.Number("3"), 3, int64(3), 3.0} {
		for range 20 {
			if got := render(t, NewRenderer(nil, nil), "root/app", deployment(replicas)); !reflect.DeepEqual(got, first) {
				t.Fatalf("rendering %d (%T) differs:\n%v\nfirst:\n%v", i, replicas, got, first)
			}
		}
	}
	// Large integers keep every digit.
	big := deployment(json.Number("9007199254740993"))
	if text := Join("", render(t, NewRenderer(nil, nil), "root/app", big)); !strings.Contains(text, "replicas: 9007199254740993\n") {
		t.Errorf("a large integer lost digits:\n%s", text)
	}
}

// TestJoin_MultiDocument: one document per object, in key order, each
// headed by its ref; YAML reads back the objects.
func TestJoin_MultiDocument(t *testing.T) {
	cm := deployer.PreviewObject{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "cfg", "namespace": "apps"},
		"data": map[string]any{"true": "true", "n": "012", "conf": "a: 1\nb: 2\n"}}}
	ns := deployer.PreviewObject{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": "apps"}}}
	stream := Join(ItemPrefix("root/app"), render(t, NewRenderer(nil, nil), "root/app", deployment(1), cm, ns))
	var headers []string
	for _, line := range strings.Split(stream, "\n") {
		if strings.HasPrefix(line, "# ") && !strings.HasPrefix(line, "# policy") {
			headers = append(headers, line)
		}
	}
	wantHeaders := []string{"# apps/v1 Deployment apps/web", "# v1 ConfigMap apps/cfg", "# v1 Namespace apps"}
	if !reflect.DeepEqual(headers, wantHeaders) {
		t.Errorf("headers = %q, want %q", headers, wantHeaders)
	}
	dec := yaml.NewDecoder(strings.NewReader(stream))
	var docs []map[string]any
	for {
		var d map[string]any
		if err := dec.Decode(&d); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("the stream is no YAML: %v\n%s", err, stream)
		}
		docs = append(docs, d)
	}
	if len(docs) != 3 {
		t.Fatalf("%d documents, want 3", len(docs))
	}
	// Strings YAML would read as other types are quoted; several lines
	// make a literal block.
	if data := docs[1]["data"].(map[string]any); data["true"] != "true" || data["n"] != "012" || data["conf"] != "a: 1\nb: 2\n" {
		t.Errorf("ConfigMap data read back as %#v", data)
	}
	if !strings.Contains(stream, "  conf: |\n    a: 1\n    b: 2\n") {
		t.Errorf("multi-line value is no literal block:\n%s", stream)
	}
}

// TestItem_LineDiff: a change of one field changes one line of the text,
// so Terraform's line diff shows exactly that field.
func TestItem_LineDiff(t *testing.T) {
	key := "root/app: apps/v1 Deployment apps/web"
	a := strings.Split(render(t, NewRenderer(nil, nil), "root/app", deployment(1))[key], "\n")
	b := strings.Split(render(t, NewRenderer(nil, nil), "root/app", deployment(2))[key], "\n")
	if len(a) != len(b) {
		t.Fatalf("line counts differ: %d, %d", len(a), len(b))
	}
	var changed []string
	for i := range a {
		if a[i] != b[i] {
			changed = append(changed, a[i]+" → "+b[i])
		}
	}
	if want := []string{"  replicas: 1 →   replicas: 2"}; !reflect.DeepEqual(changed, want) {
		t.Errorf("changed lines = %q, want %q", changed, want)
	}
}

// TestItem_Refs: objects without a name are refused naming the item;
// two objects of one ref keep both.
func TestItem_Refs(t *testing.T) {
	_, err := NewRenderer(nil, nil).Item("root/app", []deployer.PreviewObject{{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap"}}})
	if err == nil || !strings.Contains(err.Error(), "root/app") || !strings.Contains(err.Error(), "object 0") {
		t.Errorf("err = %v", err)
	}
	cm := deployer.PreviewObject{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": map[string]any{"name": "c"}}}
	got := render(t, NewRenderer(nil, nil), "root/app", cm, cm)
	if _, ok := got["root/app: v1 ConfigMap c (2)"]; !ok || len(got) != 2 {
		t.Errorf("keys = %v", got)
	}
}

// TestConfigObject: an item whose deployer cannot preview is shown by its
// spec, so a changed configuration field shows as that field.
func TestConfigObject(t *testing.T) {
	o, err := deployer.ConfigObject("job", "example.com/terraform", json.RawMessage(`{"vars":{"size":12345678901234567890},"module":"m"}`))
	if err != nil {
		t.Fatal(err)
	}
	got := render(t, NewRenderer(nil, nil), "root/app", o)
	want := `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: DeployItem
metadata:
  name: job
spec:
  config:
    module: m
    vars:
      size: 12345678901234567890
  type: example.com/terraform
`
	if text := got["root/app: landscaper.gardener.cloud/v1alpha1 DeployItem job"]; text != want {
		t.Errorf("got\n%s\nwant\n%s", text, want)
	}
	if _, err := deployer.ConfigObject("job", "t", json.RawMessage(`{`)); err == nil {
		t.Error("a broken config was accepted")
	}
}

// TestItem_LargeObject: an object beyond MaxObjectText shows as its header
// and a digest that changes with it.
func TestItem_LargeObject(t *testing.T) {
	big := func(fill string) deployer.PreviewObject {
		return deployer.PreviewObject{Note: "helm crds/", Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
			"metadata": map[string]any{"name": "big", "namespace": "x"}, "data": map[string]any{"f": strings.Repeat(fill, MaxObjectText)}}}
	}
	key := "root/app: v1 ConfigMap x/big"
	a, b := render(t, NewRenderer(nil, nil), "root/app", big("a"))[key], render(t, NewRenderer(nil, nil), "root/app", big("b"))[key]
	if len(a) > 400 || !strings.HasPrefix(a, "# helm crds/\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\n  namespace: x\n# ") {
		t.Errorf("summary =\n%s", a)
	}
	if a == b {
		t.Error("the summaries of two different objects are equal")
	}
}
