package inventory

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// homedDeployer keeps every item's objects in home, as the external
// deployer keeps its DeployItems; it records the items it was given.
type homedDeployer struct {
	deployer.Deployer // unused methods panic
	home              api.Target
	got               []deployer.Item
}

func (d *homedDeployer) Apply(_ context.Context, item deployer.Item) (deployer.Result, error) {
	d.got = append(d.got, item)
	return deployer.Result{ProviderStatus: json.RawMessage(`{"at":"home"}`),
		Objects: []deployer.ObjectRef{{APIVersion: "landscaper.gardener.cloud/v1alpha1", Kind: "DeployItem", Namespace: "ns", Name: "x"}}}, nil
}

func (d *homedDeployer) Home(deployer.Item) (*api.Target, error) { return &d.home, nil }
func (d *homedDeployer) Homes() []api.Target                     { return []api.Target{d.home} }

// An item of a Homed deployer is recorded in its home's parent, with the
// home's part-of, never in its target's cluster (which may be out of
// reach: a fenced environment). After a lost state the home is read
// besides the target imports' clusters; the rebuilt item has no applied
// target (the home is not where it deploys to), and Settle keeps it
// where the job re-applied it.
func TestRecorder_homedItems(t *testing.T) {
	home, fenced := clusterTarget(t, "6446"), clusterTarget(t, "6447")
	homeSecrets := &slowSecrets{}
	d := &homedDeployer{home: home}
	reg := deployer.NewRegistry()
	reg.Register("ext", d)
	pool := target.NewPool()
	newRecorder := func() *Recorder {
		r := NewRecorder(pool, "root", "instance")
		r.clusters[mustClients(t, r, home)] = newParentIn(homeSecrets, "ns", "root", "instance")
		r.targets[mustClients(t, r, home)] = home
		return r
	}
	r := newRecorder()
	wrapped := r.Wrap(reg)
	ext, err := wrapped.Lookup("ext")
	if err != nil {
		t.Fatal(err)
	}
	item := deployer.Item{ID: "root/sub/x", Name: "x", Type: "ext", Target: &fenced}
	if _, err := ext.Apply(context.Background(), item); err != nil {
		t.Fatal(err)
	}
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, ok := r.clusters[mustClients(t, r, fenced)]; ok {
		t.Error("the recorder opened a parent in the item's (fenced) target cluster")
	}
	rec := homeSecrets.record(t)
	if len(rec.Items) != 1 || !rec.Items[0].Homed || rec.Items[0].GroupKinds[0] != "DeployItem.landscaper.gardener.cloud" {
		t.Fatalf("home parent records %+v", rec.Items)
	}
	if got := d.got[0].PartOf; got != ApplySetID(ParentName("root"), "ns") {
		t.Errorf("part-of %q is not the home inventory's", got)
	}

	// A lost state: only the fenced target is imported (here reachable,
	// recording nothing); the home is read too.
	r = newRecorder()
	r.clusters[mustClients(t, r, fenced)] = newParentIn(&slowSecrets{}, "ns", "root", "instance")
	r.targets[mustClients(t, r, fenced)] = fenced
	r.Wrap(reg)
	r.AdoptRecorded()
	snap, err := r.Rebuild(context.Background(), []api.Target{fenced})
	if err != nil {
		t.Fatal(err)
	}
	items := snap.DeployItems()
	if len(items) != 1 || items[0].ID != "root/sub/x" || items[0].AppliedTarget != nil || items[0].Target != nil ||
		string(items[0].ProviderStatus) != `{"at":"home"}` {
		t.Fatalf("rebuilt %+v", items)
	}
	// The job renders it again but never reaches it: it keeps the
	// recorded status, and nothing is left over for deletion.
	job := &snapshot.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Name: "root",
		Subinstallations: []*snapshot.Installation{{Path: "root/sub", Name: "sub", Execution: &snapshot.Execution{
			DeployItems: []*snapshot.DeployItem{{ID: "root/sub/x", Name: "x", Type: "ext", AppliedTarget: &fenced}}}}}}}
	if left := r.Settle(job); !left.Empty() {
		t.Errorf("left over %+v", left.DeployItems())
	}
	if got := job.DeployItems()[0]; string(got.ProviderStatus) != `{"at":"home"}` {
		t.Errorf("settled item has status %s", got.ProviderStatus)
	}
}
