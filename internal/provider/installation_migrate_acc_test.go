package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperfixture"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// migrationEnv is a landscape a running Landscaper left (landscaperfixture)
// with its host objects in one namespace and what it deployed in another.
type migrationEnv struct {
	*accEnv
	target    string
	landscape *landscaperfixture.Landscape
	dyn       dynamic.Interface
}

func newMigrationEnv(t *testing.T) *migrationEnv {
	e := newAccEnv(t)
	target := localcluster.Namespace(t)
	l := landscaperfixture.Install(t, localcluster.RESTConfig(t), landscaperfixture.Options{
		Namespace: e.namespace, TargetNamespace: target, Kubeconfig: localcluster.Kubeconfig(t)})
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return &migrationEnv{accEnv: e, target: target, landscape: l, dyn: dyn}
}

// deployedKinds are what Landscaper's deployers put into the target
// namespace: the manifest items' objects, the release's objects and its
// Helm storage Secrets.
var deployedKinds = []schema.GroupVersionResource{
	{Version: "v1", Resource: "configmaps"}, {Group: "apps", Version: "v1", Resource: "deployments"}, {Version: "v1", Resource: "secrets"},
}

// versions is every object of deployedKinds in the target namespace by
// "resource/name", with its resourceVersion; the installation's
// inventory and the namespace's own root CA ConfigMap are left out.
func (e *migrationEnv) versions() map[string]string {
	e.t.Helper()
	out := map[string]string{}
	for _, gvr := range deployedKinds {
		list, err := e.dyn.Resource(gvr).Namespace(e.target).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		for _, o := range list.Items {
			if strings.HasPrefix(o.GetName(), "landscaper-inventory-") || o.GetName() == "kube-root-ca.crt" {
				continue
			}
			out[gvr.Resource+"/"+o.GetName()] = o.GetResourceVersion()
		}
	}
	return out
}

func (e *migrationEnv) assertUnchanged(step string, before map[string]string) {
	e.t.Helper()
	after := e.versions()
	if fmt.Sprint(after) != fmt.Sprint(before) {
		e.t.Fatalf("%s wrote to what Landscaper deployed:\nbefore %v\nafter  %v", step, before, after)
	}
}

// removeLandscaperRecords deletes Landscaper's own objects of the
// landscape (Installations, Executions, DeployItems) as Landscaper does
// for an Installation annotated delete-without-uninstall: nothing it
// deployed is touched. The DataObjects and Target the user made and the
// root imports stay.
func (e *migrationEnv) removeLandscaperRecords() {
	e.t.Helper()
	ctx := context.Background()
	if err := e.landscape.RemoveFinalizers(ctx, localcluster.RESTConfig(e.t)); err != nil {
		e.t.Fatal(err)
	}
	for _, kind := range []string{"DeployItem", "Execution", "Installation"} {
		if err := e.dyn.Resource(landscaperfixture.GVR(kind)).Namespace(e.namespace).DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
			e.t.Fatalf("deleting %ss: %v", kind, err)
		}
	}
}

// generateConfig runs `plan -generate-config-out` and returns what it
// wrote.
func (e *migrationEnv) generateConfig(w *cliWorkspace) []byte {
	e.t.Helper()
	w.mustRun("plan", "-input=false", "-generate-config-out=generated.tf")
	file := filepath.Join(w.dir, "generated.tf")
	generated, err := os.ReadFile(file)
	if err != nil {
		e.t.Fatal(err)
	}
	e.t.Logf("generated configuration:\n%s", generated)
	return generated
}

// patchDeployItemConfig merges fields into the spec.config of Landscaper's
// DeployItem name, as if Landscaper had deployed another configuration,
// and returns what puts the config back.
func (e *migrationEnv) patchDeployItemConfig(name, fields string) (restore func()) {
	e.t.Helper()
	items := e.dyn.Resource(landscaperfixture.GVR("DeployItem")).Namespace(e.namespace)
	ctx := context.Background()
	before, err := items.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := items.Patch(ctx, name, types.MergePatchType, []byte(`{"spec":{"config":`+fields+`}}`), metav1.PatchOptions{}); err != nil {
		e.t.Fatal(err)
	}
	return func() {
		e.t.Helper()
		now, err := items.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		now.Object["spec"] = before.Object["spec"]
		if _, err := items.Update(ctx, now, metav1.UpdateOptions{}); err != nil {
			e.t.Fatal(err)
		}
	}
}

// TestAccMigration_fromRunningLandscaper (issue 14 item 2): an import block
// with -generate-config-out takes over the landscape a running Landscaper
// left (a root with a subinstallation, a Target import, data imports and
// mappings, manifest items and a Helm release). The generated
// configuration holds the Installation manifest and no credentials, plans
// nothing but the import, and neither plan nor apply writes to anything
// deployed (resourceVersions); `terraform import` does the same. With
// Landscaper's own objects removed the plan stays empty, and destroy
// removes every deployed object and the release.
func TestAccMigration_fromRunningLandscaper(t *testing.T) {
	e := newMigrationEnv(t)
	before := e.versions()
	if len(before) < 5 {
		t.Fatalf("the fixture deployed only %v", before)
	}
	const addr = "landscaper_installation.shop"
	id := e.namespace + "/" + landscaperfixture.RootName
	w := newCLIWorkspace(t, e.hostProviderHCL()+fmt.Sprintf(`
import {
  to = %s
  id = %q
}
`, addr, id))

	generated := e.generateConfig(w)
	for _, want := range []string{`resource "landscaper_installation" "shop"`, "manifest", "kind: Installation", "shop-cluster"} {
		if !strings.Contains(string(generated), want) {
			t.Errorf("generated configuration lacks %q:\n%s", want, generated)
		}
	}
	for _, secret := range []string{"kubeconfig", "client-key-data", "client-certificate-data", "token"} {
		if strings.Contains(string(generated), secret) {
			t.Errorf("generated configuration contains %q:\n%s", secret, generated)
		}
	}
	out := w.mustRun("plan", "-input=false")
	if !strings.Contains(out, "1 to import, 0 to add, 0 to change, 0 to destroy") {
		t.Fatalf("the plan of the generated configuration does more than import:\n%s", out)
	}
	e.assertUnchanged("plan", before)
	w.mustRun("apply", "-auto-approve", "-input=false")
	e.assertUnchanged("the apply of the import", before)
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("plan after the import is not empty (%v):\n%s", err, out)
	}

	// The import command takes the same state. First with a DeployItem
	// whose config Landscaper recorded differently from what the manifest
	// renders: the import warns, naming the item, and the plan updates it.
	w.mustRun("state", "rm", addr)
	w.write(e.hostProviderHCL())
	restore := e.patchDeployItemConfig(landscaperfixture.SettingsItemName, `{"updateStrategy":"patch"}`)
	out = w.mustRun("import", "-input=false", addr, id)
	if !wrapped("Deploy Item Differs From Landscaper's").MatchString(out) || !wrapped(landscaperfixture.RootName+"/settings as this provider renders it differs").MatchString(out) {
		t.Errorf("import of a DeployItem whose config differs does not warn, naming it:\n%s", out)
	}
	out, err := w.run("plan", "-detailed-exitcode", "-input=false")
	if err == nil || !strings.Contains(out, "1 to change") {
		t.Errorf("plan after importing a differing DeployItem does not update it (%v):\n%s", err, out)
	}
	e.assertUnchanged("the import of a differing DeployItem and its plan", before)
	restore()
	w.mustRun("state", "rm", addr)
	w.mustRun("import", "-input=false", addr, id)
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("plan after terraform import is not empty (%v):\n%s", err, out)
	}
	e.assertUnchanged("terraform import", before)

	e.removeLandscaperRecords()
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("plan without Landscaper's objects is not empty (%v):\n%s", err, out)
	}
	e.assertUnchanged("refresh without Landscaper's objects", before)
	if p := e.inventoryParent(landscaperfixture.RootName); p != nil {
		t.Fatalf("an inventory %s/%s was written although no job ran", p.Namespace, p.Name)
	}

	// A changed import (the DataObject on the host cluster) is the first
	// job: it updates what depends on it and takes every object over
	// (ownership labels, inventory), the Helm release included.
	patch := []byte(`{"data":{"greeting":"Hello","replicas":2}}`)
	if _, err := e.dyn.Resource(landscaperfixture.GVR("DataObject")).Namespace(e.namespace).Patch(context.Background(),
		landscaperfixture.SettingsDataObject, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err == nil {
		t.Fatalf("a changed DataObject on the host cluster planned nothing:\n%s", out)
	}
	w.mustRun("apply", "-auto-approve", "-input=false")
	settings, err := e.kube.CoreV1().ConfigMaps(e.target).Get(context.Background(), landscaperfixture.SettingsConfigMap, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if settings.Data["greeting"] != "Hello from the shop" || settings.Labels[deployer.OwnerLabel] == "" {
		t.Errorf("after the first job ConfigMap %s has data %v and labels %v, want the new greeting and this provider's owner label",
			settings.Name, settings.Data, settings.Labels)
	}
	cache, err := e.kube.CoreV1().ConfigMaps(e.target).Get(context.Background(), landscaperfixture.ReleaseName+"-config", metav1.GetOptions{})
	if err != nil || cache.Data["message"] != "Hello" {
		t.Errorf("the Helm release's ConfigMap after the first job: %v, %v", cache, err)
	}
	if e.inventoryParent(landscaperfixture.RootName) == nil {
		t.Error("the first job wrote no inventory")
	}
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("plan after the first job is not empty (%v):\n%s", err, out)
	}

	w.mustRun("destroy", "-auto-approve", "-input=false")
	var left []string
	for k := range e.versions() {
		left = append(left, k)
	}
	sort.Strings(left)
	if len(left) != 0 {
		t.Fatalf("destroy left %v", left)
	}
	if p := e.inventoryParent(landscaperfixture.RootName); p != nil {
		t.Fatalf("destroy left the inventory %s/%s", p.Namespace, p.Name)
	}
}
