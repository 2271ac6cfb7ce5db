package manifest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// createCM creates a ConfigMap that no deploy item applied, with labels;
// it returns its UID.
func createCM(t *testing.T, ns, name string, labels map[string]any) string {
	t.Helper()
	obj := cm(ns, name, map[string]any{"v": "someone else's"})
	if labels != nil {
		obj["metadata"].(map[string]any)["labels"] = labels
	}
	u, err := dyn(t).Resource(configMaps).Namespace(ns).Create(context.Background(), unstructuredOf(obj), metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return string(u.GetUID())
}

// statusListing is a provider status that records the ConfigMaps under
// policy, each with the UID given (or none).
func statusListing(ns, policy string, names map[string]string) json.RawMessage {
	var rs []map[string]any
	for name, uid := range names {
		rs = append(rs, map[string]any{"policy": policy, "resource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": name, "namespace": ns, "uid": uid}})
	}
	b, _ := json.Marshal(map[string]any{"managedResources": rs})
	return b
}

// A provider status is a claim, the owner label the proof: whatever the
// policy, Delete (and the pruning of an Apply) removes only objects that
// carry this item's owner label. A status that lists someone else's
// objects — as one planted in the inventory does — deletes nothing of
// theirs. Before, only policy fallback checked the label.
func TestDelete_OnlyWhatCarriesTheOwnerLabel(t *testing.T) {
	ns := localcluster.Namespace(t)
	other := localcluster.Namespace(t)
	for _, policy := range []string{"manage", "fallback", ""} {
		t.Run("policy "+policy, func(t *testing.T) {
			victim := "victim-" + fmt.Sprint(len(policy))
			uid := createCM(t, other, victim, nil)
			anotherItems := "other-item-" + fmt.Sprint(len(policy))
			createCM(t, other, anotherItems, map[string]any{deployer.OwnerLabel: ownerOf("root/another")})
			for _, rebuilt := range []bool{false, true} {
				it := newItem(t, "root/planted")
				it.status = statusListing(other, policy, map[string]string{victim: uid, anotherItems: ""})
				di := it.di(config(t, nil, nil))
				di.Rebuilt = rebuilt
				if err := it.d.Delete(context.Background(), di, deployer.DeleteOptions{}); err != nil {
					t.Fatal(err)
				}
				for _, name := range []string{victim, anotherItems} {
					if dataOf(t, other, name) == nil {
						t.Fatalf("Delete (rebuilt %v) removed %s/%s, which does not carry the item's owner label", rebuilt, other, name)
					}
				}
			}
			// Pruning: an Apply that no longer renders them leaves them too.
			it := newItem(t, "root/planted")
			it.status = statusListing(other, policy, map[string]string{victim: uid})
			it.mustApply(config(t, []map[string]any{entry("manage", cm(ns, "mine-"+fmt.Sprint(len(policy)), map[string]any{"v": "1"}))}, nil))
			if dataOf(t, other, victim) == nil {
				t.Fatalf("Apply pruned %s/%s, which does not carry the item's owner label", other, victim)
			}
		})
	}
}

// After a lost state the status comes from the inventory, which anyone
// who may write Secrets there could have written: the exceptions a status
// from state allows do not hold. An object with Landscaper's label and
// the recorded UID is deleted from a status in state (migration adopted
// it) but not from a rebuilt one; a deleteAllResources group of a rebuilt
// item's configuration is not followed.
func TestDelete_RebuiltTrustsOnlyTheOwnerLabel(t *testing.T) {
	ns := localcluster.Namespace(t)
	landscaped := map[string]any{deployer.LandscaperManifestItemLabel: "some-deployitem"}
	deleteAll := map[string]any{"deletionGroups": []any{
		map[string]any{"customResourceGroup": map[string]any{"deleteAllResources": true,
			"resources": []any{map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespaces": []any{ns}}}}},
	}}
	for _, rebuilt := range []bool{true, false} {
		name := fmt.Sprintf("landscaped-%v", rebuilt)
		uid := createCM(t, ns, name, landscaped)
		createCM(t, ns, "stray-"+fmt.Sprint(rebuilt), nil)
		it := newItem(t, "root/adopted")
		it.status = statusListing(ns, "manage", map[string]string{name: uid})
		di := it.di(config(t, nil, deleteAll))
		di.Rebuilt = rebuilt
		if err := it.d.Delete(context.Background(), di, deployer.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		if gone := dataOf(t, ns, name) == nil; gone == rebuilt {
			t.Errorf("rebuilt %v: the object adopted from Landscaper gone = %v", rebuilt, gone)
		}
		if gone := dataOf(t, ns, "stray-"+fmt.Sprint(rebuilt)) == nil; gone == rebuilt {
			t.Errorf("rebuilt %v: deleteAllResources deleted the unmanaged ConfigMap = %v", rebuilt, gone)
		}
		if !rebuilt {
			break // deleteAllResources took every ConfigMap of the namespace
		}
	}
}
