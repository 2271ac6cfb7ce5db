package provider

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/inventory"
)

// itemsInstallation is an installation with one manifest deploy item
// per name, each applying a ConfigMap of that name.
func (e *accEnv) itemsInstallation(resourceName string, names ...string) string {
	blueprint := fmt.Sprintf(`apiVersion: landscaper.gardener.cloud/v1alpha1
kind: Blueprint
imports:
- name: cluster
  targetType: landscaper.gardener.cloud/kubernetes-cluster
- name: names
  schema: {type: array, items: {type: string}}
deployExecutions:
- name: main
  type: GoTemplate
  template: |
    deployItems:
    {{- range .imports.names }}
    - name: {{ . }}
      type: landscaper.gardener.cloud/kubernetes-manifest
      target: {import: cluster}
      config:
        apiVersion: manifest.deployer.landscaper.gardener.cloud/v1alpha2
        kind: ProviderConfiguration
        manifests:
        - manifest: {apiVersion: v1, kind: ConfigMap, metadata: {name: {{ . }}, namespace: %s}, data: {item: {{ . }}}}
    {{- end }}
`, e.namespace)
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return e.targetHCL + fmt.Sprintf(`
resource "landscaper_installation" %[1]q {
  name      = %[1]q
  namespace = %[2]q
  blueprint = { inline = { "blueprint.yaml" = %[3]q } }
  imports   = {
    targets = { cluster = landscaper_target.cluster.target }
    data    = { names = [%[4]s] }
  }
}
`, resourceName, e.namespace, blueprint, strings.Join(quoted, ", "))
}

// inventoryParent returns the parent Secret of the installation, nil
// when there is none.
func (e *accEnv) inventoryParent(resourceName string) *corev1.Secret {
	e.t.Helper()
	list, err := e.kube.CoreV1().Secrets("").List(context.Background(), metav1.ListOptions{LabelSelector: inventory.IDLabel})
	if err != nil {
		e.t.Fatal(err)
	}
	for i, s := range list.Items {
		if s.Annotations[inventory.InstallationAnnotation] == e.namespace+"."+resourceName {
			return &list.Items[i]
		}
	}
	return nil
}

// assertApplySet checks the parent and its members the way kubectl reads
// an ApplySet (KEP 3659): the ID label computed from the parent's group,
// kind, name and namespace, a tooling annotation "<tool>/<version>", the
// group kinds of the members, and every member labeled part-of the set.
func (e *accEnv) assertApplySet(resourceName string, members ...string) {
	e.t.Helper()
	parent := e.inventoryParent(resourceName)
	if parent == nil {
		e.t.Fatalf("no inventory parent for installation %s", resourceName)
	}
	sum := sha256.Sum256([]byte(parent.Name + "." + parent.Namespace + ".Secret."))
	id := "applyset-" + base64.RawURLEncoding.EncodeToString(sum[:]) + "-v1"
	if got := parent.Labels["applyset.kubernetes.io/id"]; got != id {
		e.t.Errorf("parent %s/%s has applyset.kubernetes.io/id %q, kubectl computes %q", parent.Namespace, parent.Name, got, id)
	}
	if tooling := parent.Annotations["applyset.kubernetes.io/tooling"]; !regexp.MustCompile(`^[a-z0-9.-]+/v[0-9]`).MatchString(tooling) {
		e.t.Errorf("tooling annotation %q is not <tool>/<version>", tooling)
	}
	if gks := parent.Annotations["applyset.kubernetes.io/contains-group-kinds"]; gks != "ConfigMap" {
		e.t.Errorf("contains-group-kinds = %q, want ConfigMap", gks)
	}
	if parent.Labels[deployer.InstanceLabel] == "" {
		e.t.Errorf("parent names no owning instance: %v", parent.Labels)
	}
	for _, name := range members {
		cm, err := e.kube.CoreV1().ConfigMaps(e.namespace).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		if got := cm.Labels["applyset.kubernetes.io/part-of"]; got != id {
			e.t.Errorf("ConfigMap %s is part-of %q, want %q", name, got, id)
		}
		if cm.Labels[deployer.InstanceLabel] != parent.Labels[deployer.InstanceLabel] {
			e.t.Errorf("ConfigMap %s has instance %q, the parent %q", name, cm.Labels[deployer.InstanceLabel], parent.Labels[deployer.InstanceLabel])
		}
	}
}

// The state is lost twice (state rm): once recovered by import, once by a
// plain apply. Each time the installation's inventory in the cluster gives
// the job what is deployed, so the apply also prunes the items the
// blueprint no longer renders, the plan after it is empty, and destroy
// removes everything, the inventory last. Before the inventory, the
// dropped items stayed in the cluster for good.
func TestAccInstallation_lostStateConvergesFromInventory(t *testing.T) {
	requireAcc(t)
	e := newAccEnv(t)
	const res = "lost"
	addr := "landscaper_installation." + res
	w := newCLIWorkspace(t, e.itemsInstallation(res, "a", "b", "c"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	e.assertApplySet(res, "a", "b", "c")

	// Lost, then imported: the apply prunes c.
	w.mustRun("state", "rm", addr)
	w.mustRun("import", "-input=false", addr, e.namespace+"/"+res)
	w.write(e.itemsInstallation(res, "a", "b"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	if err := e.configMapsGone("c")(nil); err != nil {
		t.Fatalf("after import and apply: %v", err)
	}
	e.assertApplySet(res, "a", "b")
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("the plan after the converging apply is not empty (%v):\n%s", err, out)
	}

	// Lost again, and only applied: b is pruned.
	w.mustRun("state", "rm", addr)
	w.write(e.itemsInstallation(res, "a"))
	w.mustRun("apply", "-auto-approve", "-input=false")
	if err := e.configMapsGone("b", "c")(nil); err != nil {
		t.Fatalf("after a plain apply: %v", err)
	}
	e.assertApplySet(res, "a")

	w.mustRun("destroy", "-auto-approve", "-input=false")
	if err := e.configMapsGone("a", "b", "c")(nil); err != nil {
		t.Fatal(err)
	}
	if p := e.inventoryParent(res); p != nil {
		t.Fatalf("destroy left the inventory %s/%s", p.Namespace, p.Name)
	}
}
