package engine

import (
	"context"
	"testing"
)

func TestApply_ExecutionStateCarriesOver(t *testing.T) {
	// the `state` output of an execution is fed back to it in the next job
	e, _, _ := newEngine()
	spec := rootSpec(t, `apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    - name: counter
      type: landscaper.gardener.cloud/mock
      config:
        export: {count: {{ add1 (default 0 .state.count) }}}
    state:
      count: {{ add1 (default 0 .state.count) }}
`)
	var snap *Snapshot
	for i := 1; i <= 3; i++ {
		var err error
		if snap, err = e.Apply(context.Background(), spec, snap); err != nil {
			t.Fatal(err)
		}
	}
	if got := snap.DeployItems()[0].Exports["count"]; got != int64(3) {
		t.Errorf("count after three jobs = %v, want 3", got)
	}
}
