package provider

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
)

// configMapEvents records, in the order the API server sends them, the
// names of the test namespace's ConfigMaps that were added and deleted,
// until stop is called. One watch stream delivers its events in the
// order the cluster stored them, so the order is the cluster's, not a
// guess from timestamps.
func (e *extEnv) configMapEvents() (stop func() (added, deleted []string)) {
	e.t.Helper()
	w, err := e.kube.CoreV1().ConfigMaps(e.namespace).Watch(context.Background(), metav1.ListOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	var mu sync.Mutex
	var added, deleted []string
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ev := range w.ResultChan() {
			m, ok := ev.Object.(metav1.Object)
			if !ok {
				continue
			}
			mu.Lock()
			switch ev.Type {
			case watch.Added:
				added = append(added, m.GetName())
			case watch.Deleted:
				deleted = append(deleted, m.GetName())
			}
			mu.Unlock()
		}
	}()
	return func() ([]string, []string) {
		w.Stop()
		<-done
		mu.Lock()
		defer mu.Unlock()
		return added, deleted
	}
}

// before fails the test unless first comes before second in events.
func before(t *testing.T, what string, events []string, first, second string) {
	t.Helper()
	i, j := slices.Index(events, first), slices.Index(events, second)
	if i < 0 || j < 0 || i > j {
		t.Errorf("%s: %s must come before %s, the cluster saw %v", what, first, second, events)
	}
}

// dagConfig is two installations. "extfirst": the built-in manifest item
// a-builtin depends on the external item a-ext, which takes 2 s.
// "builtinfirst": the external item b-ext depends on the built-in item
// b-gate, a Deployment that becomes ready only once a node carries label.
func (e *extEnv) dagConfig(label string) string {
	extFirst := e.externalItem("a-ext", "", "a", "2s") + manifestItem("a-builtin", "dependsOn: [a-ext]",
		fmt.Sprintf("{apiVersion: v1, kind: ConfigMap, metadata: {name: a-builtin, namespace: %s}, data: {value: a}}", e.namespace))
	gate := manifestItem("b-gate", "", fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata: {name: b-gate, namespace: %[1]s}
spec:
  replicas: 1
  selector: {matchLabels: {app: b-gate}}
  template:
    metadata: {labels: {app: b-gate}}
    spec:
      terminationGracePeriodSeconds: 0
      nodeSelector: {%[2]q: "true"}
      containers: [{name: c, image: registry.k8s.io/pause:3.10}]`, e.namespace, label))
	builtinFirst := gate + e.externalItem("b-ext", "dependsOn: [b-gate]", "b", "")
	return e.providerTimeoutsHCL("") + inlineInstallation(e.targetHCL, "extfirst", e.namespace, extFirst) +
		inlineInstallation("", "builtinfirst", e.namespace, builtinFirst)
}

// DAG order between external and built-in items, both ways, as the
// cluster saw it: a built-in item that depends on an external one is
// applied after the deployer finished (its ConfigMap is added after the
// deployer's), and an external item that depends on a built-in one gets
// no DeployItem while the built-in item waits for readiness. Destroy
// runs the order backwards.
func TestAccExternalDeployer_dagOrder(t *testing.T) {
	requireAcc(t)
	e := newExtEnv(t)
	label := "dag.landscaper-terraform.io/" + e.namespace
	w := newCLIWorkspace(t, e.dagConfig(label))

	stop := e.configMapEvents()
	_, wait := w.start("apply", "-auto-approve", "-input=false")
	e.waitForDeployment("b-gate")
	// The external job of the other installation took its 2 s meanwhile:
	// time enough for b-ext to have started, had it not waited.
	e.awaitDeployItem("a-ext", phaseIs("Succeeded"))
	if di := e.deployItem("b-ext"); di != nil {
		t.Errorf("the external item b-ext got its DeployItem %s before the built-in item it depends on was ready", di.GetName())
	}
	if err := e.configMapsGone("b-ext")(nil); err != nil {
		t.Errorf("the external item ran before the built-in item it depends on was ready: %v", err)
	}
	e.labelNodes(label)
	if out, err := wait(); err != nil {
		t.Fatalf("apply: %v\n%s", err, out)
	}
	added, _ := stop()
	before(t, "apply", added, "a-ext", "a-builtin")
	if !slices.Contains(added, "b-ext") {
		t.Errorf("b-ext was never deployed: %v", added)
	}

	stop = e.configMapEvents()
	w.mustRun("destroy", "-auto-approve", "-input=false")
	_, deleted := stop()
	before(t, "destroy", deleted, "a-builtin", "a-ext")
	e.assertDestroyed("extfirst", "a-ext", "a-builtin", "b-ext")
	if p := e.inventoryParent("builtinfirst"); p != nil {
		t.Errorf("destroy left the inventory %s/%s", p.Namespace, p.Name)
	}
}
