package landscaperrecording

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func unb64(t *testing.T, s any) []byte {
	t.Helper()
	str, _ := s.(string)
	raw, err := base64.StdEncoding.DecodeString(str)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return raw
}

var rename = strings.NewReplacer("old-ns", "new-ns", "${KUBECONFIG}", "apiVersion: v1\nkind: Config\n").Replace

// Strings are replaced everywhere: plain fields and map keys, Secret
// values as JSON or as text, Helm release records, compressed deploy item
// templates; what does not change keeps its bytes.
func TestMapStrings(t *testing.T) {
	binary := string([]byte{0xff, 0xfe, 'o', 'l', 'd', '-', 'n', 's'})
	secret := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": "s", "namespace": "old-ns", "labels": map[string]any{"old-ns": "x"}},
		"data": map[string]any{
			"json":       b64(`{"url": "http://a.old-ns.svc",  "n": 12345678901234567890}`),
			"same":       b64(`{"kept":   "as written"}`),
			"kubeconfig": b64("${KUBECONFIG}"),
			"binary":     b64(binary),
		},
	}}
	if err := mapStrings(secret, rename); err != nil {
		t.Fatal(err)
	}
	data := secret.Object["data"].(map[string]any)
	if got := string(unb64(t, data["json"])); got != `{"n":12345678901234567890,"url":"http://a.new-ns.svc"}` {
		t.Errorf("json: %s", got)
	}
	if got := string(unb64(t, data["same"])); got != `{"kept":   "as written"}` {
		t.Errorf("unchanged JSON rewritten: %s", got)
	}
	if got := string(unb64(t, data["kubeconfig"])); got != "apiVersion: v1\nkind: Config\n" {
		t.Errorf("text: %q", got)
	}
	if got := string(unb64(t, data["binary"])); got != binary {
		t.Errorf("binary changed: %q", got)
	}
	if secret.GetNamespace() != "new-ns" || secret.GetLabels()["new-ns"] != "x" {
		t.Errorf("metadata: %v", secret.Object["metadata"])
	}

	release := b64(base64.StdEncoding.EncodeToString(gz(t, `{"name":"r","namespace":"old-ns","version":2}`)))
	helm := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret", "type": helmReleaseType,
		"metadata": map[string]any{"name": "sh.helm.release.v1.r.v2"},
		"data":     map[string]any{"release": release},
	}}
	if err := mapStrings(helm, rename); err != nil {
		t.Fatal(err)
	}
	inner, err := base64.StdEncoding.DecodeString(string(unb64(t, helm.Object["data"].(map[string]any)["release"])))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := compress.Gunzip(inner, 1<<20)
	if err != nil {
		t.Fatalf("release no longer gzipped: %v", err)
	}
	if string(plain) != `{"name":"r","namespace":"new-ns","version":2}` {
		t.Errorf("release: %s", plain)
	}

	templates := base64.StdEncoding.EncodeToString(gz(t, `[{"name":"a","config":{"namespace":"old-ns"}}]`))
	exec := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": APIVersion, "kind": "Execution",
		"metadata": map[string]any{"name": "e", "namespace": "old-ns"},
		"spec":     map[string]any{"deployItemsCompressed": templates, "context": "default"},
	}}
	if err := mapStrings(exec, rename); err != nil {
		t.Fatal(err)
	}
	zipped := unb64(t, exec.Object["spec"].(map[string]any)["deployItemsCompressed"])
	if plain, err := compress.Gunzip(zipped, 1<<20); err != nil || string(plain) != `[{"config":{"namespace":"new-ns"},"name":"a"}]` {
		t.Errorf("templates: %s, %v", plain, err)
	}
	untouched := exec.DeepCopy()
	if err := mapStrings(untouched, strings.NewReplacer("nothing", "else").Replace); err != nil {
		t.Fatal(err)
	}
	if untouched.Object["spec"].(map[string]any)["deployItemsCompressed"] != exec.Object["spec"].(map[string]any)["deployItemsCompressed"] {
		t.Error("unchanged templates were compressed again")
	}
}

// Broken encodings are errors naming the object and field, not panics.
func TestMapStrings_BrokenEncodings(t *testing.T) {
	for name, obj := range map[string]map[string]any{
		"secret value": {"apiVersion": "v1", "kind": "Secret", "metadata": map[string]any{"name": "s"}, "data": map[string]any{"k": "%%%"}},
		"helm release": {"apiVersion": "v1", "kind": "Secret", "type": helmReleaseType, "metadata": map[string]any{"name": "s"},
			"data": map[string]any{"release": b64("not base64 %")}},
		"templates": {"apiVersion": APIVersion, "kind": "Execution", "metadata": map[string]any{"name": "e"},
			"spec": map[string]any{"deployItemsCompressed": b64("not gzip")}},
	} {
		err := mapStrings(&unstructured.Unstructured{Object: obj}, rename)
		if err == nil || !strings.Contains(err.Error(), "/") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// The hash annotation of every DataObject Landscaper wrote is dataHash of
// its data, and stays so when a rewrite changes the data.
func TestDataHash_AsLandscaperComputesIt(t *testing.T) {
	for _, name := range Recordings() {
		rec := MustLoad(t, name)
		renamed, err := rec.Rewrite(ReplayOptions{TargetNamespace: "somewhere-else"})
		if err != nil {
			t.Fatal(err)
		}
		checked, changed := 0, 0
		for i, do := range renamed.Host {
			want, has := do.GetAnnotations()[dataHashAnnotation]
			if do.GetKind() != "DataObject" || !has {
				continue
			}
			got, err := dataHash(do)
			if err != nil {
				t.Fatal(err)
			}
			if got != want {
				t.Errorf("%s: DataObject %s: hash %s, data hashes to %s", name, do.GetName(), want, got)
			}
			checked++
			if want != rec.Host[i].GetAnnotations()[dataHashAnnotation] {
				changed++
			}
		}
		if checked == 0 || changed == 0 {
			t.Errorf("%s: %d hashes checked, %d changed by the rewrite", name, checked, changed)
		}
	}
}
