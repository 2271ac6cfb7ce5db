package landscaperstate_test

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
)

// A Target another installation exported keeps Landscaper's labels that
// say so (sourceType export, source Inst.<name>) when it is read from the
// host cluster: the provider trusts such a Target like a blueprint's.
// Landscaper's other bookkeeping labels are still dropped. Before, all
// data.landscaper.gardener.cloud labels were.
func TestObjectsManifest_KeepsExportLabelsOfTargets(t *testing.T) {
	target := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": landscaperstate.APIVersion, "kind": "Target",
		"metadata": map[string]any{"name": "exported", "namespace": hostNS, "labels": map[string]any{
			"data.landscaper.gardener.cloud/sourceType": "export",
			"data.landscaper.gardener.cloud/source":     "Inst.other",
			"data.landscaper.gardener.cloud/key":        "cluster",
			"team":                                      "a",
		}},
		"spec": map[string]any{"type": "landscaper.gardener.cloud/kubernetes-cluster", "config": map[string]any{"kubeconfig": "x"}},
	}}
	docs, err := landscaperstate.ObjectsManifest(context.Background(), fakeHost([]*unstructured.Unstructured{target}), hostNS,
		[]landscaperstate.Named{{Kind: "Target", Name: "exported"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"data.landscaper.gardener.cloud/sourceType: export", "data.landscaper.gardener.cloud/source: Inst.other", "team: a"} {
		if !strings.Contains(docs, want) {
			t.Errorf("the Target's manifest lacks %q:\n%s", want, docs)
		}
	}
	if strings.Contains(docs, "data.landscaper.gardener.cloud/key") {
		t.Errorf("the Target's manifest keeps Landscaper's key label:\n%s", docs)
	}
}
