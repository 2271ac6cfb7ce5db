package helm

import (
	"reflect"
	"testing"

	"helm.sh/helm/v3/pkg/release"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// A revision the item's state does not record — one someone added with
// the item's computable owner label — may list only objects the release
// manages (Helm's annotations name it): Helm's upgrade and uninstall
// would delete the others (a ConfigMap of kube-system, another release's
// object, one that only carries this installation's labels). The revision the state
// records is trusted as it is (releases adopted from Landscaper, objects
// deployed before they were stamped); a rebuilt record proves nothing.
func TestReleaseOwner_ForeignObjectsInAnUnrecordedRevision(t *testing.T) {
	owner := releaseOwner{item: deployer.OwnerValue("root/web"), itemID: "root/web", instance: "inst-1", partOf: "applyset-1", recorded: 3}
	obj := func(ns, name string, labels map[string]any) deployer.PreviewObject {
		md := map[string]any{"name": name, "namespace": ns}
		if labels != nil {
			md["labels"] = labels
		}
		return deployer.PreviewObject{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "metadata": md}}
	}
	live := []deployer.PreviewObject{
		helmManaged(obj("apps", "ours", map[string]any{deployer.InstanceLabel: "inst-1"}), "web", "apps"),
		helmManaged(obj("apps", "landscapers", nil), "web", "apps"),
		obj("kube-system", "coredns", nil),
		obj("apps", "labels-only", map[string]any{deployer.InstanceLabel: "inst-1", deployer.PartOfLabel: "applyset-1"}),
		helmManaged(obj("apps", "other-release", nil), "other", "apps"),
		helmManaged(obj("other-ns", "same-name-elsewhere", nil), "web", "other-ns"),
	}
	want := []string{"ConfigMap kube-system/coredns", "ConfigMap apps/labels-only", "ConfigMap apps/other-release", "ConfigMap other-ns/same-name-elsewhere"}
	if got := owner.foreignIn(&release.Release{Name: "web", Namespace: "apps", Version: 4}, live); !reflect.DeepEqual(got, want) {
		t.Errorf("planted revision 4: foreign = %v, want %v", got, want)
	}
	if got := owner.foreignIn(&release.Release{Name: "web", Namespace: "apps", Version: 3}, live); got != nil {
		t.Errorf("the recorded revision 3: foreign = %v, want none", got)
	}
	rebuilt := owner
	rebuilt.rebuilt = true
	if got := rebuilt.foreignIn(&release.Release{Name: "web", Namespace: "apps", Version: 3}, live); !reflect.DeepEqual(got, want) {
		t.Errorf("revision 3 of a rebuilt record: foreign = %v, want %v", got, want)
	}
}

// helmManaged is o with the annotations Helm gives the objects of release
// namespace/name.
func helmManaged(o deployer.PreviewObject, name, namespace string) deployer.PreviewObject {
	o.Object["metadata"].(map[string]any)["annotations"] = map[string]any{helmReleaseName: name, helmReleaseNamespace: namespace}
	return o
}
