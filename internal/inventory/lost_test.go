package inventory

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// clusterTarget is a kubernetes-cluster target of an API server at port;
// building its clients contacts nothing.
func clusterTarget(t *testing.T, port string) api.Target {
	t.Helper()
	kc := `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:` + port + `", insecure-skip-tls-verify: true}}]
users: [{name: u, user: {token: t}}]
contexts: [{name: c, context: {cluster: c, user: u, namespace: ns}}]
current-context: c
`
	cfg, err := json.Marshal(api.KubernetesClusterConfig{Kubeconfig: kc})
	if err != nil {
		t.Fatal(err)
	}
	return api.NewTarget("cluster", "", api.KubernetesClusterTargetType, cfg)
}

// openedParent puts a parent recording items into r's cluster of t, as
// the job's first call there would have read it.
func openedParent(t *testing.T, r *Recorder, tg api.Target, foreign bool, items ...RecordedItem) {
	t.Helper()
	clients, err := r.pool.Clients(&tg)
	if err != nil {
		t.Fatal(err)
	}
	p := newParentIn(&slowSecrets{}, "ns", r.root, r.instance)
	p.opened, p.foreign = true, foreign
	for _, it := range items {
		e, err := newEntry(it, nil)
		if err != nil {
			t.Fatal(err)
		}
		p.items[it.ID] = e
	}
	r.clusters[clients], r.targets[clients] = p, tg
}

func recordedItem(id, typ, status string) RecordedItem {
	return RecordedItem{ID: id, Name: id[strings.LastIndex(id, "/")+1:], Type: typ, ProviderStatus: json.RawMessage(status)}
}

// After a lost state, an item the job applies without a provider status
// starts from the one its cluster's parent records (same item, same
// type); an item with its own status, or of another type, keeps its own;
// without AdoptRecorded nothing is taken.
func TestRecorder_startFromRecordAfterLostState(t *testing.T) {
	r := NewRecorder(target.NewPool(), "root", "instance")
	a := clusterTarget(t, "6443")
	openedParent(t, r, a, false, recordedItem("root/sub/x", "manifest", `{"objects":["a","b"]}`))
	p := r.clusters[mustClients(t, r, a)]
	item := func(typ, status string) deployer.Item {
		return deployer.Item{ID: "root/sub/x", Name: "x", Type: typ, ProviderStatus: json.RawMessage(status)}
	}
	start := func(it deployer.Item) (json.RawMessage, bool) {
		r.startFromRecord(p, &it)
		return it.ProviderStatus, it.Rebuilt
	}
	if got, rebuilt := start(item("manifest", "")); len(got) != 0 || rebuilt {
		t.Errorf("without AdoptRecorded: %s (rebuilt %v)", got, rebuilt)
	}
	r.AdoptRecorded()
	for _, tc := range []struct {
		typ, own, want string
		rebuilt        bool
	}{
		{"manifest", "", `{"objects":["a","b"]}`, true},
		{"manifest", `{"objects":["a"]}`, `{"objects":["a"]}`, false},
		{"helm", "", "", false},
	} {
		got, rebuilt := start(item(tc.typ, tc.own))
		if string(got) != tc.want || rebuilt != tc.rebuilt {
			t.Errorf("%s item with status %q starts from %q (rebuilt %v), want %q (rebuilt %v)", tc.typ, tc.own, got, rebuilt, tc.want, tc.rebuilt)
		}
	}
}

func mustClients(t *testing.T, r *Recorder, tg api.Target) *target.Clients {
	t.Helper()
	c, err := r.pool.Clients(&tg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Settle after a lost state: an item the job applied to the recording
// cluster is settled; one it holds but never applied takes the recorded
// status and cluster; one it no longer renders, and one it now deploys to
// another cluster, are left over in the cluster they were found in; a
// foreign parent (a newer instance's) is left alone. Merge puts what is
// left over into the job's snapshot, under its installation (created
// when the job no longer has it), never twice.
func TestRecorder_settleAndMergeAfterLostState(t *testing.T) {
	r := NewRecorder(target.NewPool(), "root", "instance")
	r.AdoptRecorded()
	a, b, c := clusterTarget(t, "6443"), clusterTarget(t, "6444"), clusterTarget(t, "6445")
	openedParent(t, r, a, false,
		recordedItem("root/sub/applied", "manifest", `"a1"`),
		recordedItem("root/sub/unapplied", "manifest", `"a2"`),
		recordedItem("root/gone/dropped", "manifest", `"a3"`),
		recordedItem("root/sub/moved", "manifest", `"a4"`))
	openedParent(t, r, c, true, recordedItem("root/sub/theirs", "manifest", `"c1"`))
	snap := &snapshot.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Name: "root",
		Subinstallations: []*snapshot.Installation{{Path: "root/sub", Name: "sub", Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{
			{ID: "root/sub/applied", Name: "applied", Type: "manifest", AppliedTarget: &a, ProviderStatus: json.RawMessage(`"new"`)},
			{ID: "root/sub/unapplied", Name: "unapplied", Type: "manifest"},
			{ID: "root/sub/moved", Name: "moved", Type: "manifest", AppliedTarget: &b},
		}}}}}}

	left := r.Settle(snap)

	items := map[string]*snapshot.DeployItem{}
	for _, in := range snap.Installations() {
		if in.Execution != nil {
			for _, it := range in.Execution.DeployItems {
				items[it.ID] = it
			}
		}
	}
	if got := items["root/sub/applied"]; string(got.ProviderStatus) != `"new"` || got.AppliedTarget != &a {
		t.Errorf("applied item changed: %+v", got)
	}
	if got := items["root/sub/unapplied"]; string(got.ProviderStatus) != `"a2"` || got.AppliedTarget == nil || mustClients(t, r, *got.AppliedTarget) != mustClients(t, r, a) {
		t.Errorf("unapplied item did not take the recorded status and cluster: %+v", got)
	}
	var leftIDs []string
	for _, in := range left.Installations() {
		for _, it := range in.Execution.DeployItems {
			leftIDs = append(leftIDs, it.ID)
			if mustClients(t, r, *it.AppliedTarget) != mustClients(t, r, a) || in.Targets.Single[it.Target.Import].Spec.Type == "" {
				t.Errorf("left over %s does not target the cluster it was found in", it.ID)
			}
		}
	}
	if strings.Join(leftIDs, ",") != "root/gone/dropped,root/sub/moved" {
		t.Fatalf("left over: %v, want the dropped and the moved item", leftIDs)
	}

	Merge(snap, left)
	var ids []string
	for _, in := range snap.Installations() {
		if in.Execution != nil {
			for _, it := range in.Execution.DeployItems {
				ids = append(ids, it.ID)
			}
		}
	}
	if strings.Join(ids, ",") != "root/sub/applied,root/sub/moved,root/sub/unapplied,root/gone/dropped" {
		t.Errorf("after Merge the snapshot holds %v", ids)
	}
}

// A job that starts from a lost state reads each cluster's parent once:
// Recorder.Rebuild's read is the one the job's first deployment there uses.
// A parent read as absent and never written is not deleted at close.
func TestRecorder_loadReadsEachParentOnce(t *testing.T) {
	r := NewRecorder(target.NewPool(), "root", "instance")
	a, b := clusterTarget(t, "6443"), clusterTarget(t, "6444")
	stores := map[string]*slowSecrets{}
	for name, tg := range map[string]api.Target{"a": a, "b": b} {
		stores[name] = &slowSecrets{}
		r.clusters[mustClients(t, r, tg)] = newParentIn(stores[name], "ns", r.root, "older")
		r.targets[mustClients(t, r, tg)] = tg
	}
	recorded := content{installation: "root", instance: "older"}
	e, err := newEntry(recordedItem("root/sub/x", "manifest", `{"objects":["a"]}`), nil)
	if err != nil {
		t.Fatal(err)
	}
	recorded.items = []entry{e}
	if err := r.clusters[mustClients(t, r, a)].write(context.Background(), recorded); err != nil {
		t.Fatal(err)
	}
	r.AdoptRecorded()
	snap, err := r.Rebuild(context.Background(), []api.Target{a, a, b})
	if err != nil {
		t.Fatal(err)
	}
	if items := snap.DeployItems(); len(items) != 1 || items[0].ID != "root/sub/x" || items[0].AppliedTarget == nil {
		t.Fatalf("rebuilt %+v", items)
	}
	if _, err := r.parentFor(context.Background(), &a, true); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if ga, gb := stores["a"].gets.Load(), stores["b"].gets.Load(); ga != 1 || gb != 1 {
		t.Errorf("parents read %d and %d times, want once each", ga, gb)
	}
	if stores["b"].deletes != 0 {
		t.Errorf("a parent that never existed was deleted %d times", stores["b"].deletes)
	}
}
