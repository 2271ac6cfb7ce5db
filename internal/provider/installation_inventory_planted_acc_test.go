package provider

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"testing"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// parentNamespace is where the inventory of an installation deploying
// through e.targetHCL lives: the local cluster's kubeconfig names no
// namespace.
const parentNamespace = "default"

// plantInventory writes, as someone who may only write Secrets in the
// target namespace could, a Secret under the name of installation root's
// inventory whose record lists a deploy item that "deployed" the
// ConfigMap victimNS/victim. forged makes it look exactly like one this
// provider writes (labels, annotations, type); otherwise it is a plain
// Secret holding the record.
func (e *accEnv) plantInventory(root, victimNS string, forged bool) *corev1.Secret {
	e.t.Helper()
	status, _ := json.Marshal(map[string]any{"managedResources": []any{map[string]any{"policy": "manage",
		"resource": map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "name": "victim", "namespace": victimNS}}}})
	const instance = "00000000-0000-7000-8000-000000000000" // older than any real instance
	rec, _ := json.Marshal(inventory.Record{Version: 1, Installation: root, Instance: instance, Items: []inventory.RecordedItem{{
		ID: root + "/victim-item", Name: "victim-item", Type: "landscaper.gardener.cloud/kubernetes-manifest",
		Config: json.RawMessage(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration","manifests":[]}`), ProviderStatus: status,
	}}})
	var zipped bytes.Buffer
	zw := gzip.NewWriter(&zipped)
	_, _ = zw.Write(rec)
	_ = zw.Close()
	name := inventory.ParentName(root)
	s := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: parentNamespace}, Data: map[string][]byte{"record": zipped.Bytes()}}
	if forged {
		s.Type = "landscaper.gardener.cloud/inventory"
		s.Labels = map[string]string{inventory.IDLabel: inventory.ApplySetID(name, parentNamespace), deployer.InstanceLabel: instance}
		s.Annotations = map[string]string{inventory.ToolingAnnotation: inventory.Tooling, inventory.InstallationAnnotation: root}
	}
	secrets := e.kube.CoreV1().Secrets(parentNamespace)
	if err := secrets.Delete(context.Background(), name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		e.t.Fatal(err)
	}
	created, err := secrets.Create(context.Background(), s, metav1.CreateOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	return created
}

// createVictim creates the ConfigMap victim in a namespace of its own,
// which no installation deployed.
func (e *accEnv) createVictim() string {
	e.t.Helper()
	ns := localcluster.Namespace(e.t)
	victim := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "victim", Namespace: ns}, Data: map[string]string{"owner": "someone else"}}
	if _, err := e.kube.CoreV1().ConfigMaps(ns).Create(context.Background(), victim, metav1.CreateOptions{}); err != nil {
		e.t.Fatal(err)
	}
	return ns
}

func (e *accEnv) victimSurvives(ns, when string) {
	e.t.Helper()
	if _, err := e.kube.CoreV1().ConfigMaps(ns).Get(context.Background(), "victim", metav1.GetOptions{}); err != nil {
		e.t.Fatalf("%s: the victim ConfigMap %s/victim is gone (%v)", when, ns, err)
	}
}

// Someone who may only write Secrets in the target namespace plants a
// record under the installation's inventory name that lists a ConfigMap
// in another namespace. Neither a create nor an import followed by an
// apply deletes it: one forged to look exactly like the provider's own
// deletes nothing, because the victim does not carry the deploy item's
// owner label, and a plain planted Secret is ignored with a warning
// naming it. The installation itself deploys as usual, and the planted
// record is replaced by its own. Before, the create deleted the victim.
func TestAccInventory_plantedRecordDeletesNothing(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	victimNS := e.createVictim()
	const res = "planted"
	root := e.namespace + "." + res
	addr := "landscaper_installation." + res

	e.plantInventory(root, victimNS, true)
	w := newCLIWorkspace(t, e.itemsInstallation(res, "a"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	e.victimSurvives(victimNS, "after a create over a forged record")
	e.assertApplySet(res, "a")

	// Lost state and import, with a plain planted Secret in place of the
	// installation's own inventory: ignored, with a warning.
	w.mustRun("state", "rm", addr)
	planted := e.plantInventory(root, victimNS, false)
	w.mustRun("import", "-input=false", addr, e.namespace+"/"+res)
	out := w.mustRun("apply", "-auto-approve", "-input=false")
	e.victimSurvives(victimNS, "after import and apply")
	for _, want := range []string{"Installation Inventory Ignored", parentNamespace + "/" + planted.Name, "nothing it lists was rebuilt or deleted"} {
		if !wrapped(want).MatchString(out) {
			t.Fatalf("the apply after the import does not warn %q:\n%s", want, out)
		}
	}
	e.assertApplySet(res, "a")

	w.mustRun("destroy", "-auto-approve", "-input=false")
	e.victimSurvives(victimNS, "after destroy")
	if err := e.configMapsGone("a")(nil); err != nil {
		t.Fatal(err)
	}
}
