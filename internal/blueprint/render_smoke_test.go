package blueprint

import (
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// TestRender_Smoke proves a GoTemplate deploy execution sees data and target imports.
func TestRender_Smoke(t *testing.T) {
	files := fstest.MapFS{
		"blueprint.yaml": {Data: []byte(`
apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
jsonSchema: "https://json-schema.org/draft/2019-09/schema"
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: replicas
  schema: {type: integer}
- name: opt
  required: false
  schema: {type: string}
  default: {value: "dflt"}
deployExecutions:
- name: main
  type: GoTemplate
  file: deploy.yaml
subinstallations:
- file: sub.yaml
`)},
		"deploy.yaml": {Data: []byte(`deployItems:
- name: item
  type: landscaper.gardener.cloud/mock
  target: {import: cluster}
  config:
    kc: {{ .imports.cluster.spec.config.kubeconfig | quote }}
    replicas: {{ .imports.replicas }}
    opt: {{ .imports.opt }}
state:
  count: {{ add1 (default 0 .state.count) }}
`)},
		"sub.yaml": {Data: []byte(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: InstallationTemplate
name: sub
blueprint:
  filesystem:
    blueprint.yaml: "apiVersion: landscaper.gardener.cloud/v1alpha1\nkind: Blueprint\n"
`)},
	}
	b, err := Load(files)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Warnings) != 1 {
		t.Fatalf("warnings: %v", b.Warnings)
	}
	r, err := b.Render(RenderInput{Imports: Imports{
		Data:    map[string]any{"replicas": 3},
		Targets: map[string]api.Target{"cluster": api.NewTarget("c", "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"abc"}`))},
	}})
	if err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(r)
	t.Log(string(out))
}
