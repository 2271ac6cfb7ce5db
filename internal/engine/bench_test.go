package engine

import (
	"context"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// thousandItems renders 1,000 independent zero-delay mock items.
const thousandItems = `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: prefix
  schema: {type: string}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    {{- range $i := until 1000 }}
    - name: item-{{ $i }}
      type: landscaper.gardener.cloud/mock
      target: {import: cluster}
      config:
        export: {index: {{ $i }}}
    {{- end }}
`

// BenchmarkApply_1000Items is the whole engine's overhead per deploy item
// (render, plan check, DAG, phase machines, snapshot, its JSON encoding)
// with a zero-delay mock deployer. Target: < 1 ms per item, < 100 MB.
func BenchmarkApply_1000Items(b *testing.B) {
	spec := rootSpec(b, thousandItems)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		e, _, _ := newEngine()
		snap, err := e.Apply(context.Background(), spec, nil)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := snapshot.Marshal(snap); err != nil {
			b.Fatal(err)
		}
		if n := len(snap.DeployItems()); n != 1000 {
			b.Fatalf("%d items", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1000/1e6, "ms/item")
}
