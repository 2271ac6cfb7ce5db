package inventory

import (
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// A snapshot rebuilt after a lost state holds the searched target among
// the root's imports, also when only a subinstallation's items were found
// with it: the engine hands a target that takes a provider kubeconfig
// only to the root's imports (issue 32 b), and the refresh and destroy of
// those items must still reach them.
func TestRebuilt_RootImportsTheSearchedTarget(t *testing.T) {
	searched := api.NewTarget("cluster", "", api.KubernetesClusterTargetType, nil)
	searched.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: "ref-searched"}
	nodes := map[string]*snapshot.Installation{}
	addRebuilt(nodes, "root", "inventory-0", searched, recordedItem("root/sub/x", "manifest", `{"objects":["a"]}`))
	snap := rebuiltSnapshot(nodes, "root")
	refs := snapshot.RootProviderRefs(snap.Root.Targets)
	items := snap.DeployItems()
	if len(items) != 1 || items[0].AppliedTarget == nil {
		t.Fatalf("want one rebuilt item with its applied target, got %+v", items)
	}
	if !refs.Allows(items[0].AppliedTarget) {
		t.Error("the root does not import the target the item was found with; its refresh and destroy would be refused")
	}
}
