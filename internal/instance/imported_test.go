package instance

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/mock"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// deleteAll is a manifest configuration whose deletion group deletes
// every ConfigMap of the cluster: an exception only state may grant.
const deleteAll = `{"deletionGroups":[{"customResourceGroup":{"resources":[{"apiVersion":"v1","kind":"ConfigMap"}],"deleteAllResources":true}}]}`

// Everything an import assembles comes from an inventory Secret that
// whoever may write Secrets there could have planted (an import has no
// signature key): every deploy item of the result is rebuilt, whatever
// the kept snapshot says of it — the item the parents record (their
// status and config put in), one only the kept snapshot lists with a
// status of its own, and one the kept snapshot lists without any.
func TestImported_EveryItemRebuilt(t *testing.T) {
	status := json.RawMessage(`{"managedResources":[]}`)
	recorded := &snapshot.DeployItem{ID: "root/app", Name: "app", Type: "landscaper.gardener.cloud/kubernetes-manifest",
		Config: json.RawMessage(deleteAll), ProviderStatus: status, Rebuilt: true}
	found := inventory.Found{Snapshot: &snapshot.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Name: "root",
		Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{recorded}}}}}

	// The kept snapshot claims its items came from state (rebuilt: false).
	keptSnap := &snapshot.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Name: "root", JobID: "job",
		Phase: api.InstallationPhaseSucceeded,
		Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{
			{ID: "root/app", Name: "app", Type: recorded.Type, Phase: api.DeployItemPhaseSucceeded},
			{ID: "root/planted", Name: "planted", Type: recorded.Type, Config: json.RawMessage(deleteAll), ProviderStatus: status, Phase: api.DeployItemPhaseSucceeded},
			{ID: "root/new", Name: "new", Type: recorded.Type},
		}}}}
	b, err := snapshot.Marshal(keptSnap)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := json.Marshal(kept{Version: keptVersion, Snapshot: b})
	if err != nil {
		t.Fatal(err)
	}
	found.Kept = []json.RawMessage{raw}

	got := assemble(found, "root")
	if !got.Kept || got.Snapshot.Empty() {
		t.Fatalf("the kept snapshot was not used: %+v", got)
	}
	items := got.Snapshot.DeployItems()
	if len(items) != 3 {
		t.Fatalf("items = %d, want 3", len(items))
	}
	for _, it := range items {
		if !it.Rebuilt {
			t.Errorf("%s is not rebuilt: its deployer would grant it what only state may (config %s)", it.ID, it.Config)
		}
	}
	if app := items[0]; app.ID != "root/app" || string(app.Config) != deleteAll || string(app.ProviderStatus) != string(status) {
		t.Errorf("root/app did not take the recorded status and config: %+v", app)
	}

	// terraform destroy after the import: the deployer is told.
	spy := &rebuiltSpy{Deployer: mock.New(), seen: map[string]bool{}}
	reg := deployer.NewRegistry()
	reg.Register(recorded.Type, spy)
	r := Runner{Engine: &engine.Engine{Deployers: reg}}
	if _, err := r.Delete(context.Background(), got.Snapshot, "i", engine.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"root/app", "root/planted"} {
		if rebuilt, called := spy.seen["delete "+id]; !called || !rebuilt {
			t.Errorf("delete of %s: called %v, rebuilt %v", id, called, rebuilt)
		}
	}
}

// What an import keeps never holds a target with credentials (keep strips
// them), so one in a kept snapshot was planted — a kubeconfig whose exec
// plugin the next refresh would run: the import leaves it out, wherever
// the snapshot has it, as keep would have.
func TestImported_PlantedCredentialsLeftOut(t *testing.T) {
	exec := api.NewTarget("prod", "", api.KubernetesClusterTargetType,
		json.RawMessage(`{"kubeconfig":"users: [{name: u, user: {exec: {command: /bin/sh}}}]"}`))
	ref := api.NewTarget("ref", "", api.KubernetesClusterTargetType, nil)
	ref.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: "x"}
	keptSnap := &snapshot.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: "root", Name: "root", JobID: "job",
		Targets:       snapshot.TargetImports{Single: map[string]api.Target{"prod": exec, "ref": ref}},
		TargetExports: map[string]api.Target{"out": exec},
		Execution: &snapshot.Execution{DeployItems: []*snapshot.DeployItem{
			{ID: "root/app", Name: "app", Type: "t", AppliedTarget: &exec},
		}}}}
	b, err := snapshot.Marshal(keptSnap)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(kept{Version: keptVersion, Snapshot: b})
	found := inventory.Found{Kept: []json.RawMessage{raw}, Snapshot: &snapshot.Snapshot{Version: snapshot.Version,
		Root: &snapshot.Installation{Path: "root", Name: "root", Execution: &snapshot.Execution{}}}}
	got := assemble(found, "root").Snapshot
	if got.Empty() {
		t.Fatal("nothing assembled")
	}
	out, _ := snapshot.Marshal(got)
	if strings.Contains(string(out), "/bin/sh") {
		t.Errorf("the planted kubeconfig is in the imported snapshot:\n%s", out)
	}
	if _, ok := got.Root.Targets.Single["ref"]; !ok {
		t.Error("a target referring to the provider block was left out")
	}
}
