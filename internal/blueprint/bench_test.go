package blueprint

import (
	"context"
	"encoding/json"
	"testing"
	"testing/fstest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// largeBlueprint has one deploy execution rendering items deploy items and
// one subinstallation execution rendering subs subinstallations, in the
// given engine, with target and data imports read by every item.
func largeBlueprint(b *testing.B, typ string) *Blueprint {
	b.Helper()
	var deploy, subs string
	switch typ {
	case "GoTemplate":
		deploy = `deployItems:
{{- range $i := until (int .imports.items) }}
- name: item-{{ $i }}
  type: landscaper.gardener.cloud/kubernetes-manifest
  target: {import: cluster}
  dependsOn: [{{ if $i }}item-{{ sub $i 1 }}{{ end }}]
  config:
    apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
    kind: ProviderConfiguration
    updateStrategy: update
    manifests:
    - policy: manage
      manifest:
        apiVersion: v1
        kind: ConfigMap
        metadata: {name: cm-{{ $i }}, namespace: {{ $.imports.namespace }}}
        data:
          server: {{ $.imports.cluster.metadata.name }}
          labels: {{ toJson $.imports.labels | quote }}
{{- end }}
`
		subs = `subinstallations:
{{- range $i := until (int .imports.subs) }}
- apiVersion: landscaper.gardener.cloud/v1alpha1
  kind: InstallationTemplate
  name: sub-{{ $i }}
  blueprint: {ref: cd://resources/child}
  imports:
    data: [{name: namespace, dataRef: ns}]
    targets: [{name: cluster, target: cluster}]
{{- end }}
`
	case "Spiff":
		deploy = `deployItems: (( map[[0 .. imports.items - 1]|i|-> {"name"="item-" i, "type"="landscaper.gardener.cloud/kubernetes-manifest", "target"={"import"="cluster"}, "config"={"apiVersion"="manifest.deployer.landscaper.gardener.cloud/v1alpha2", "kind"="ProviderConfiguration", "manifests"=[{"policy"="manage", "manifest"={"apiVersion"="v1", "kind"="ConfigMap", "metadata"={"name"="cm-" i, "namespace"=imports.namespace}, "data"={"server"=imports.cluster.metadata.name}}}]}}] ))
`
		subs = `subinstallations: (( map[[0 .. imports.subs - 1]|i|-> {"name"="sub-" i, "blueprint"={"ref"="cd://resources/child"}, "imports"={"data"=[{"name"="namespace", "dataRef"="ns"}]}}] ))
`
	}
	bp, err := Load(fstest.MapFS{
		"blueprint.yaml": {Data: []byte(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- {name: cluster, targetType: kubernetes-cluster}
- {name: namespace, schema: {type: string, pattern: "^[a-z0-9-]+$"}}
- {name: labels, schema: {type: object, additionalProperties: {type: string}}}
- {name: items, schema: {type: integer, minimum: 1}}
- {name: subs, schema: {type: integer, minimum: 1}}
deployExecutions:
- {name: items, type: ` + typ + `, file: deploy.tpl}
subinstallationExecutions:
- {name: subs, type: ` + typ + `, file: subs.tpl}
`)},
		"deploy.tpl": {Data: []byte(deploy)},
		"subs.tpl":   {Data: []byte(subs)},
	})
	if err != nil {
		b.Fatal(err)
	}
	return bp
}

func benchmarkRender(b *testing.B, typ string) {
	bp := largeBlueprint(b, typ)
	in := RenderInput{Imports: Imports{
		Data: map[string]any{"namespace": "bench", "labels": map[string]any{"team": "a", "tier": "web"}, "items": 500, "subs": 50},
		Targets: map[string]api.Target{
			"cluster": api.NewTarget("cluster", "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"apiVersion: v1\nkind: Config\n"}`)),
		},
	}}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		r, err := bp.Render(context.Background(), in)
		if err != nil {
			b.Fatal(err)
		}
		if len(r.DeployItems) != 500 || len(r.Subinstallations) != 50 {
			b.Fatalf("rendered %d items, %d subinstallations", len(r.DeployItems), len(r.Subinstallations))
		}
	}
}

// BenchmarkRender_GoTemplate500Items50Subinstallations renders 500 deploy
// items and 50 subinstallations with GoTemplate.
func BenchmarkRender_GoTemplate500Items50Subinstallations(b *testing.B) {
	benchmarkRender(b, "GoTemplate")
}

// BenchmarkRender_Spiff500Items50Subinstallations is the same with Spiff.
func BenchmarkRender_Spiff500Items50Subinstallations(b *testing.B) {
	benchmarkRender(b, "Spiff")
}
