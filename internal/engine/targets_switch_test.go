package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// placeDeployer deploys items into the cluster its target's kubeconfig
// names, so a test sees on which side of a target switch things are.
// An item whose config says {"fail": true} is deployed, then fails.
type placeDeployer struct {
	mu       sync.Mutex
	clusters map[string]map[string]bool // server -> item IDs
	log      []string
}

const placeType = "example.com/place"

func server(t *api.Target) string {
	if t == nil {
		return "<none>"
	}
	var cfg api.KubernetesClusterConfig
	_ = json.Unmarshal(t.Spec.Config, &cfg)
	for _, line := range strings.Split(cfg.Kubeconfig, "\n") {
		if s, ok := strings.CutPrefix(strings.TrimSpace(line), "server: "); ok {
			return s
		}
	}
	return "<unknown>"
}

func (d *placeDeployer) Apply(_ context.Context, item deployer.Item) (deployer.Result, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := server(item.Target)
	if d.clusters[s] == nil {
		d.clusters[s] = map[string]bool{}
	}
	d.clusters[s][item.ID] = true
	d.log = append(d.log, "apply "+item.ID+" @"+s)
	res := deployer.Result{ProviderStatus: json.RawMessage(`{"deployed":true}`)}
	var cfg struct{ Fail bool }
	_ = json.Unmarshal(item.Config, &cfg)
	if cfg.Fail {
		return res, failure.Terminalf("Scripted", "scripted failure")
	}
	return res, nil
}

func (d *placeDeployer) Delete(_ context.Context, item deployer.Item, _ deployer.DeleteOptions) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	s := server(item.Target)
	delete(d.clusters[s], item.ID)
	d.log = append(d.log, "delete "+item.ID+" @"+s)
	return nil
}

func (d *placeDeployer) Drift(_ context.Context, item deployer.Item) (deployer.DriftReport, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.clusters[server(item.Target)][item.ID] {
		return deployer.DriftReport{Drifted: true, Reason: "missing"}, nil
	}
	return deployer.DriftReport{}, nil
}

func (d *placeDeployer) Validate(json.RawMessage) error { return nil }

// on lists the item IDs deployed on server.
func (d *placeDeployer) on(server string) []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	var ids []string
	for id := range d.clusters[server] {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

func clusterTarget(server, namespace, token string) api.Target {
	kc := fmt.Sprintf("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: %s\nusers:\n- name: u\n  user: {token: %s}\ncontexts:\n- name: c\n  context: {cluster: c, user: u, namespace: %q}\ncurrent-context: c\n", server, token, namespace)
	return api.NewTarget("cluster", "", api.KubernetesClusterTargetType, mustJSON(api.KubernetesClusterConfig{Kubeconfig: kc}))
}

// placeSpec deploys first and second (in that order) to the cluster
// import; failFirst makes first fail.
func placeSpec(t *testing.T, target api.Target, failFirst bool) RootSpec {
	bp := itemsBlueprint(fmt.Sprintf(`- {name: first, type: %[1]s, target: {import: cluster}, config: {fail: %[2]t}}
- {name: second, type: %[1]s, target: {import: cluster}, dependsOn: [first]}`, placeType, failFirst))
	bp = strings.Replace(bp, "deployExecutions:", "imports:\n- name: cluster\n  targetType: "+api.KubernetesClusterTargetType+"\ndeployExecutions:", 1)
	return RootSpec{Name: "root", Blueprint: loadBlueprint(t, bp), Imports: blueprintImports(target)}
}

func newPlaceEngine() (*Engine, *placeDeployer) {
	e, _, _ := newEngine()
	d := &placeDeployer{clusters: map[string]map[string]bool{}}
	e.Deployers.Register(placeType, d)
	return e, d
}

func TestApply_TargetSwitchThatFailsLeavesNothingOnTheOldSide(t *testing.T) {
	// a changed target is handled like a changed type: items are deleted from the old cluster before the new one is applied to;
	// the switching job fails before second is re-applied, yet nothing stays on the old side and destroy removes everything
	e, d := newPlaceEngine()
	a, b := clusterTarget("https://a.example", "default", "t1"), clusterTarget("https://b.example", "default", "t1")
	snap, err := e.Apply(context.Background(), placeSpec(t, a, false), nil)
	if err != nil || len(d.on("https://a.example")) != 2 {
		t.Fatalf("first apply: %v, on a: %v", err, d.on("https://a.example"))
	}
	snap = roundTrip(t, snap)
	snap, err = e.Apply(context.Background(), placeSpec(t, b, true), snap)
	if err == nil {
		t.Fatal("the switching job should fail (first is scripted to)")
	}
	if left := d.on("https://a.example"); len(left) != 0 {
		t.Fatalf("left on the old cluster after the switch: %v (calls %v)", left, d.log)
	}
	if got := d.on("https://b.example"); strings.Join(got, ",") != "root/first" {
		t.Fatalf("on the new cluster: %v", got)
	}
	gone, err := e.Delete(context.Background(), roundTrip(t, snap), DeleteOptions{})
	if err != nil || !gone.Empty() {
		t.Fatalf("destroy: %v", err)
	}
	if left := append(d.on("https://a.example"), d.on("https://b.example")...); len(left) != 0 {
		t.Fatalf("left after destroy: %v (calls %v)", left, d.log)
	}
}

func TestApply_SameClusterNewCredentialsNotReplaced(t *testing.T) {
	// a rotated token is the same destination: nothing is deleted, the new credentials are recorded for delete and drift
	e, d := newPlaceEngine()
	snap, err := e.Apply(context.Background(), placeSpec(t, clusterTarget("https://a.example", "default", "t1"), false), nil)
	if err != nil {
		t.Fatal(err)
	}
	rotated := clusterTarget("https://a.example", "default", "t2")
	if snap, err = e.Apply(context.Background(), placeSpec(t, rotated, false), roundTrip(t, snap)); err != nil {
		t.Fatal(err)
	}
	for _, call := range d.log {
		if strings.HasPrefix(call, "delete") {
			t.Fatalf("deleted on a credential change: %v", d.log)
		}
	}
	for _, it := range roundTrip(t, snap).DeployItems() {
		if it.AppliedTarget == nil || !strings.Contains(string(it.AppliedTarget.Spec.Config), "t2") {
			t.Errorf("%s records %+v, want the rotated credentials", it.ID, it.AppliedTarget)
		}
	}
}

func TestApply_TargetSwitchFromSnapshotWithoutRecordedTargets(t *testing.T) {
	// items of a snapshot written before targets were recorded per item are deleted from the previous job's target
	e, d := newPlaceEngine()
	snap, err := e.Apply(context.Background(), placeSpec(t, clusterTarget("https://a.example", "default", "t1"), false), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range snap.DeployItems() {
		it.AppliedTarget = nil
	}
	if _, err := e.Apply(context.Background(), placeSpec(t, clusterTarget("https://a.example", "other", "t1"), false), roundTrip(t, snap)); err != nil {
		t.Fatal(err)
	}
	if left := d.on("https://a.example"); len(left) != 2 {
		t.Fatalf("on a: %v", left)
	}
	if !strings.Contains(strings.Join(d.log, "\n"), "delete root/second @https://a.example") {
		t.Errorf("second was not deleted from its old namespace before being applied to the new one: %v", d.log)
	}
}

func TestDrift_UsesRecordedTarget(t *testing.T) {
	// drift reads where the item was applied, not where the installation's imports point now
	e, _ := newPlaceEngine()
	spec := placeSpec(t, clusterTarget("https://a.example", "default", "t1"), false)
	snap, err := e.Apply(context.Background(), spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	snap = roundTrip(t, snap)
	snap.Root.Targets.Single["cluster"] = clusterTarget("https://b.example", "default", "t1")
	drifted, err := e.Drift(context.Background(), snap, spec.Blueprint, nil)
	if err != nil || len(drifted) != 0 {
		t.Fatalf("drift: %v %+v", err, drifted)
	}
}

func TestSameDestination(t *testing.T) {
	// the API server and the context's namespace make the destination; credentials do not
	a := clusterTarget("https://a.example", "ns", "t1")
	for name, tt := range map[string]struct {
		b    api.Target
		same bool
	}{
		"rotated token":   {clusterTarget("https://a.example", "ns", "t2"), true},
		"other namespace": {clusterTarget("https://a.example", "other", "t1"), false},
		"other server":    {clusterTarget("https://b.example", "ns", "t1"), false},
		"not a kubeconfig": {api.NewTarget("cluster", "", api.KubernetesClusterTargetType,
			json.RawMessage(`{"kubeconfig":"{{not yaml"}`)), false},
	} {
		if got := snapshot.SameDestination(&a, &tt.b); got != tt.same {
			t.Errorf("%s: same = %v", name, got)
		}
	}
	if !snapshot.SameDestination(nil, nil) || snapshot.SameDestination(&a, nil) {
		t.Error("nil targets")
	}
}

func blueprintImports(target api.Target) blueprint.Imports {
	return blueprint.Imports{Targets: map[string]api.Target{"cluster": target}}
}

func roundTrip(t *testing.T, s *Snapshot) *Snapshot {
	t.Helper()
	b, err := snapshot.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	out, err := snapshot.Unmarshal(b)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSnapshot_AppliedTargetsShareTheTargetTable(t *testing.T) {
	// every item records its target by content hash; the credential is written once
	e, _ := newPlaceEngine()
	snap, err := e.Apply(context.Background(), placeSpec(t, clusterTarget("https://a.example", "default", "tok-once"), false), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := snapshot.Marshal(snap)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), "tok-once"); n != 1 {
		t.Errorf("the credential is written %d times:\n%s", n, b)
	}
	if !strings.Contains(string(b), `"appliedTarget":"`) {
		t.Errorf("items do not refer to the target table:\n%s", b)
	}
}
