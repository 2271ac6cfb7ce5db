package external_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/external"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/testdeployer"
)

var executions = schema.GroupVersionResource{Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: "executions"}

// landscapersItem creates what Landscaper's execution controller makes
// for one deploy item — an Execution, the Target and Context it
// references, and the DeployItem with the Execution's labels and
// controller reference — and lets the test deployer run one job on it,
// as it would for Landscaper. It returns the DeployItem after the job.
func (w *world) landscapersItem(t *testing.T, name string, config []byte) *unstructured.Unstructured {
	t.Helper()
	ctx := context.Background()
	create := func(gvr schema.GroupVersionResource, obj map[string]any) *unstructured.Unstructured {
		t.Helper()
		out, err := w.res(gvr).Create(ctx, &unstructured.Unstructured{Object: obj}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	meta := func(n string) map[string]any { return map[string]any{"name": n, "namespace": w.namespace} }
	exec := create(executions, map[string]any{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "Execution", "metadata": meta(name + "-exec"), "spec": map[string]any{}})
	var targetConfig any
	if err := json.Unmarshal(w.target.Spec.Config, &targetConfig); err != nil {
		t.Fatal(err)
	}
	create(external.Targets, map[string]any{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "Target", "metadata": meta(name + "-target"),
		"spec": map[string]any{"type": w.target.Spec.Type, "config": targetConfig}})
	create(external.Contexts, map[string]any{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "Context", "metadata": meta(name + "-context")})
	var cfg map[string]any
	if err := json.Unmarshal(config, &cfg); err != nil {
		t.Fatal(err)
	}
	m := meta(name + "-ls")
	m["labels"] = map[string]any{"execution.landscaper.gardener.cloud/managed-by": exec.GetName(), "execution.landscaper.gardener.cloud/name": name}
	m["finalizers"] = []any{external.Finalizer}
	m["ownerReferences"] = []any{map[string]any{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "Execution",
		"name": exec.GetName(), "uid": string(exec.GetUID()), "controller": true, "blockOwnerDeletion": true}}
	di := create(external.DeployItems, map[string]any{"apiVersion": "landscaper.gardener.cloud/v1alpha1", "kind": "DeployItem", "metadata": m,
		"spec": map[string]any{"type": testdeployer.Type, "config": cfg, "context": name + "-context",
			"target": map[string]any{"name": name + "-target", "namespace": w.namespace}}})
	job := uuid.NewString()
	di.Object["status"] = map[string]any{"jobID": job, "jobIDGenerationTime": time.Now().UTC().Format(time.RFC3339), "observedGeneration": int64(0)}
	if _, err := w.res(external.DeployItems).UpdateStatus(ctx, di, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	var done *unstructured.Unstructured
	w.waitFor(t, external.DeployItems, di.GetName(), time.Minute, func(u *unstructured.Unstructured) bool {
		done = u
		return u != nil && nested(u, "status", "jobIDFinished") == job
	})
	if phase := nested(done, "status", "phase"); phase != "Succeeded" {
		t.Fatalf("Landscaper's DeployItem after its job: phase %s", phase)
	}
	return done
}

// A DeployItem Landscaper made is adopted as it is — same UID, its
// deployer's status, no new job, nothing written — and stays the
// item's in place: drift finds nothing, the next apply writes it where
// it is (this provider's labels, Target and Context, Landscaper's
// execution ties removed) with a job on the same object, and a delete
// uninstalls through the deployer and leaves Landscaper's Target and
// Context alone.
func testAdoption(t *testing.T, w *world) {
	ctx := context.Background()
	// Configured for another namespace: an adopted DeployItem does not move.
	d := external.New(external.Options{Client: w.client, Namespace: "somewhere-else"})
	item := w.item("adopted", testdeployer.Config{ConfigMap: w.configMap("adopted", "1")})
	ls := w.landscapersItem(t, "adopted", item.Config)
	from := deployer.Landscaped{DeployItem: ls.GetName(), Namespace: ls.GetNamespace(), UID: string(ls.GetUID()), Config: item.Config}

	raw, err := d.Adopt(ctx, item, from)
	if err != nil {
		t.Fatalf("Adopt: %v", err)
	}
	after := w.get(t, external.DeployItems, ls.GetName())
	if after.GetResourceVersion() != ls.GetResourceVersion() {
		t.Errorf("Adopt wrote the DeployItem: resourceVersion %s, was %s", after.GetResourceVersion(), ls.GetResourceVersion())
	}
	st := status(t, deployer.Result{ProviderStatus: raw})
	if st.UID != string(ls.GetUID()) || st.Name != ls.GetName() || st.Namespace != w.namespace || st.JobID != nested(ls, "status", "jobID") ||
		st.Phase != "Succeeded" || st.Deployer == nil || len(st.DeployerStatus) == 0 || !st.Adopted {
		t.Fatalf("adopted provider status = %+v, want Landscaper's DeployItem %s with its job and deployer status", st, ls.GetName())
	}
	item.ProviderStatus = raw
	if r, err := d.Drift(ctx, item); err != nil || r.Drifted {
		t.Fatalf("Drift right after the adoption: %+v, %v", r, err)
	}
	changed := w.item("adopted", testdeployer.Config{ConfigMap: w.configMap("adopted", "2")})
	changed.ProviderStatus = raw
	if r, err := d.Drift(ctx, changed); err != nil || !r.Drifted || !strings.Contains(r.Reason, "spec.config") {
		t.Errorf("Drift of another config than Landscaper's DeployItem holds: %+v, %v", r, err)
	}
	replaced := from
	replaced.UID = uuid.NewString()
	if _, err := d.Adopt(ctx, item, replaced); err == nil || !strings.Contains(err.Error(), "UID") {
		t.Errorf("Adopt of a DeployItem whose UID changed: %v, want an error naming the UID", err)
	}

	res := mustApply(t, d, changed)
	applied := status(t, res)
	if applied.UID != st.UID || applied.Name != ls.GetName() || applied.Namespace != w.namespace || applied.JobID == st.JobID || applied.Landscaper != nil || !applied.Adopted {
		t.Fatalf("apply after the adoption: %+v, want a new job on Landscaper's DeployItem, in place", applied)
	}
	di := w.get(t, external.DeployItems, ls.GetName())
	if di.GetLabels()[deployer.OwnerLabel] != deployer.OwnerValue(item.ID) || di.GetLabels()["execution.landscaper.gardener.cloud/managed-by"] != "" || len(di.GetOwnerReferences()) != 0 {
		t.Errorf("DeployItem after the apply: labels %v, owner references %v; want this provider's labels and no Execution's", di.GetLabels(), di.GetOwnerReferences())
	}
	if nested(di, "spec", "context") != ls.GetName() || nested(di, "spec", "target", "name") != ls.GetName() {
		t.Errorf("DeployItem after the apply references context %s, target %s; want its own", nested(di, "spec", "context"), nested(di, "spec", "target", "name"))
	}
	if cm := w.get(t, configMaps, "adopted"); cm == nil || nested(cm, "data", "value") != "2" {
		t.Fatalf("ConfigMap after the apply: %v", cm)
	}
	changed.ProviderStatus = res.ProviderStatus
	if r, err := d.Drift(ctx, changed); err != nil || r.Drifted {
		t.Errorf("Drift after the apply: %+v, %v", r, err)
	}
	rebuilt := changed
	rebuilt.Rebuilt = true // a lost state finds the DeployItem where it is, by its owner label
	mustDelete(t, d, rebuilt, deployer.DeleteOptions{})
	if w.get(t, external.DeployItems, ls.GetName()) != nil || w.get(t, configMaps, "adopted") != nil {
		t.Error("Delete left the adopted DeployItem or what its deployer deployed")
	}
	if w.get(t, external.Targets, "adopted-target") == nil || w.get(t, external.Contexts, "adopted-context") == nil {
		t.Error("Delete removed Landscaper's Target or Context")
	}
}
