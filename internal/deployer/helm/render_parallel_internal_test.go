package helm

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
)

// TestParsedInParallel: the crds/ of a chart and a preview's documents
// parsed several at a time give the objects, in order, and the error of
// the first that fails, as one at a time.
func TestParsedInParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	crd := func(i int) string {
		return fmt.Sprintf("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: k%d.example.com}\n", i)
	}
	ch := &chart.Chart{Metadata: &chart.Metadata{Name: "c", Version: "1.0.0", APIVersion: chart.APIVersionV2}}
	var want []string
	var docs []renderedDoc
	for i := 0; i < 30; i++ {
		ch.Files = append(ch.Files, &chart.File{Name: fmt.Sprintf("crds/%02d.yaml", i), Data: []byte(crd(2*i) + "---\n" + crd(2*i+1))})
		want = append(want, fmt.Sprintf("k%d.example.com", 2*i), fmt.Sprintf("k%d.example.com", 2*i+1))
		docs = append(docs, renderedDoc{content: fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%d, namespace: x}\n", i), note: fmt.Sprint("doc ", i)})
	}
	names, err := chartCRDNames(ch)
	if err != nil || !reflect.DeepEqual(names, want) {
		t.Fatalf("names %v (%v), want %v", names, err, want)
	}
	r := previewRender{chartRender{cfg: &ProviderConfiguration{Name: "r", Namespace: "x"}}}
	pv, err := r.objects("x/item", docs)
	if err != nil || len(pv.Objects) != len(docs) {
		t.Fatalf("%d objects (%v)", len(pv.Objects), err)
	}
	for i, o := range pv.Objects {
		if name := o.Object["metadata"].(map[string]any)["name"]; name != fmt.Sprint("cm-", i) || !strings.Contains(o.Note, fmt.Sprint("doc ", i)) {
			t.Fatalf("object %d is %v (%q)", i, name, o.Note)
		}
	}

	ch.Files[12].Data = []byte("a: [")
	ch.Files[20].Data = []byte("b: {")
	if _, err := chartCRDNames(ch); err == nil || !strings.HasPrefix(err.Error(), "c/crds/12.yaml: ") {
		t.Errorf("error %v, want crds/12.yaml's", err)
	}
	docs[5].content, docs[9].content = "kind: [", "apiVersion: v1\nkind: ConfigMap\n"
	_, first := r.objects("x/item", docs[:6])
	if _, err := r.objects("x/item", docs); err == nil || first == nil || err.Error() != first.Error() {
		t.Errorf("error %v, want the first failing document's (%v)", err, first)
	}
}
