package snapshot

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
	"time"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// compatTree is the tree of the fixtures in testdata/compat, which earlier
// builds of the codec wrote (v2-target-table.json: Marshal at 3e3faba, every
// object's keys sorted; v2-inline-targets.json: version 2 as written before
// the target table existed), holding every place a target can be (single, list and
// map imports, a deploy item's applied target, target exports), exports
// and state with an integer above 2^53, a subinstallation with its
// blueprint and a failed item.
func compatTree() *Snapshot {
	one := api.NewTarget("one", "ns", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"KUBECONFIG-ONE"}`))
	one.Metadata.Labels = map[string]string{"a": "b"}
	two := api.NewTarget("two", "", api.KubernetesClusterTargetType, json.RawMessage(`{"kubeconfig":"KUBECONFIG-TWO","port":`+big+`}`))
	applied := func(t api.Target) *api.Target { return &t }
	idx := 1
	return &Snapshot{Version: Version, Root: &Installation{
		Path: "root", Name: "root", Phase: api.InstallationPhaseFailed, JobID: "job-2", JobIDFinished: "job-2", ImportsHash: "ih",
		LastError: &Error{Operation: OperationReconcile, Reason: "SubobjectsFailed", Message: "failed", Retryable: true},
		Targets: TargetImports{Single: map[string]api.Target{"cluster": one},
			Lists: map[string][]api.Target{"all": {one, two}}, Maps: map[string]map[string]api.Target{"by": {"eu": two, "us": one}}},
		Exports:       map[string]any{"id": json.Number(big), "list": []any{"x", map[string]any{"k": true}}},
		TargetExports: map[string]api.Target{"out": two},
		State:         map[string]json.RawMessage{"deploy/main": json.RawMessage(`{"n":` + big + `}`)},
		ImportRefs:    []string{"a", "b"}, ExportRefs: []string{"c"},
		Execution: &Execution{Phase: api.ExecutionPhaseFailed, JobID: "job-2", JobIDFinished: "job-2", DeployItems: []*DeployItem{
			{ID: "root/a", Name: "a", Type: "landscaper.gardener.cloud/kubernetes-manifest", Target: &api.TargetSelector{Import: "cluster"},
				AppliedTarget: applied(one), DependsOn: []string{"b"}, Config: json.RawMessage(`{"manifests":[{"n":` + big + `}]}`),
				ConfigHash: "ch-a", AppliedConfigHash: "ch-a", Timeout: &api.Duration{Duration: 5 * time.Minute}, UpdateOnChangeOnly: true,
				Phase: api.DeployItemPhaseSucceeded, JobID: "job-2", JobIDFinished: "job-2",
				ProviderStatus: json.RawMessage(`{"uid":"u-a"}`), Exports: map[string]any{"n": json.Number(big)}},
			{ID: "root/b", Name: "b", Type: "landscaper.gardener.cloud/mock", Target: &api.TargetSelector{Import: "all", Index: &idx},
				AppliedTarget: applied(two), Phase: api.DeployItemPhaseFailed, JobID: "job-2", JobIDFinished: "job-2",
				LastError: &Error{Operation: OperationReconcile, Message: "scripted"}},
			{ID: "root/c", Name: "c", Type: "landscaper.gardener.cloud/mock", Phase: api.DeployItemPhaseSucceeded},
		}},
		Subinstallations: []*Installation{{Path: "root/sub", Name: "sub", Phase: api.InstallationPhaseSucceeded,
			Targets:   TargetImports{Single: map[string]api.Target{"cluster": one}},
			Blueprint: &api.SubinstallationBlueprint{Ref: "cd://componentReferences/x/resources/bp"},
			Execution: &Execution{Phase: api.ExecutionPhaseSucceeded, DeployItems: []*DeployItem{
				{ID: "root/sub/d", Name: "d", Type: "landscaper.gardener.cloud/mock", Target: &api.TargetSelector{Import: "cluster"}, AppliedTarget: applied(one)}}}}},
	}}
}

func TestUnmarshal_ReadsEarlierWireFormats(t *testing.T) {
	// snapshots in existing states decode to the tree they were written from: the target
	// table with keys sorted as the earlier codec wrote it, and targets inline (before the table)
	want := compatTree() // built in the order Marshal writes
	for _, name := range []string{"v2-target-table.json", "v2-inline-targets.json"} {
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile("testdata/compat/" + name)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Unmarshal(in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				a, _ := json.Marshal(got)
				b, _ := json.Marshal(want)
				t.Fatalf("decoded\n%s\nwant\n%s", a, b)
			}
			again, err := Marshal(got)
			if err != nil {
				t.Fatal(err)
			}
			fresh, err := Marshal(compatTree())
			if err != nil || string(again) != string(fresh) {
				t.Errorf("re-encoded differently from the tree (%v):\n%s\n%s", err, again, fresh)
			}
		})
	}
}
