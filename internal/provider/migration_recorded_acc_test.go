package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperrecording"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

// migratedRoots are the root Installations of the recorded landscape
// "harbor" that a migration takes over; the fifth, canary, has a mock
// item, which cannot be.
var migratedRoots = []string{"catalog", "storefront", "metrics", "orders"}

// TestAccMigration_recordedLandscaper (issue 26) migrates what Landscaper
// v0.98's own controllers deployed — the recording harbor-installed
// replayed into the local cluster — as the guide
// (docs/guides/migrating-from-landscaper.md) has the user do it, on one
// replay:
//   - canary's mock item is refused as not adoptable;
//   - import blocks with -generate-config-out take over the four other
//     roots: the generated configuration is the Installations as applied
//     (no context: default, no credentials), plans only the imports
//     without a warning, and neither the plan nor the apply writes to
//     anything deployed; the next plan is empty; the exports equal the
//     DataObjects and Targets Landscaper exported; `terraform import` of a
//     DeployItem whose configuration differs warns and plans its update;
//   - Landscaper reconciles once more (harbor-reconciled: its Helm deployer
//     upgrades both releases to revision 2): the plan shows the two
//     releases drifted, the apply takes them over (before the fix it was
//     refused, and destroy left them behind), the next plan is empty and
//     no object was replaced;
//   - the guide's end state: the objects the roots read moved into
//     manifest_objects, applied; with every Landscaper object gone from
//     the host cluster the plan stays empty;
//   - destroy removes everything deployed (but an object of policy keep)
//     and the inventories.
func TestAccMigration_recordedLandscaper(t *testing.T) {
	e := newRecordedEnv(t, "harbor-installed")
	before := e.deployed()
	if len(before) < 20 {
		t.Fatalf("the replay deployed only %v", before)
	}
	w := newCLIWorkspace(t, e.providerHCL()+e.importsHCL("canary"))
	var generated string
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"mock item refused as not adoptable", func(t *testing.T) { e.canaryRefused(t, w) }},
		{"import", func(t *testing.T) { generated = e.importAll(t, w, before) }},
		{"exports are Landscaper's", func(t *testing.T) { e.exportsAreLandscapers(t, w) }},
		{"terraform import of a differing DeployItem", func(t *testing.T) { e.importDiffering(t, w) }},
		{"Landscaper reconciles after the import", func(t *testing.T) { e.reconciledByLandscaper(t, w, before) }},
		{"end state without Landscaper", func(t *testing.T) { e.withoutLandscaper(t, w, generated, before) }},
		{"destroy", func(t *testing.T) { e.destroyAll(t, w) }},
	}
	for _, s := range steps {
		if !t.Run(s.name, func(t *testing.T) {
			// The step's helpers fail the step, not the whole test.
			ew, ee := *w, *e.accEnv
			ew.t, ee.t = t, t
			*w, *e.accEnv = ew, ee
			s.run(t)
		}) {
			return // the later steps build on this one
		}
	}
}

// canaryRefused: importing canary fails, saying its mock item renders but
// cannot be adopted — not that the Installation does not render it.
func (e *recordedEnv) canaryRefused(t *testing.T, w *cliWorkspace) {
	out, err := w.run("plan", "-input=false", "-generate-config-out=canary.tf")
	if err == nil {
		t.Fatalf("the import of canary (a mock item) succeeded:\n%s", out)
	}
	if !wrappedRE(`deploy item \S*canary/rollout renders as Landscaper's DeployItem \S+/canary-rollout-\S+, but items of type landscaper.gardener.cloud/mock cannot be adopted`).MatchString(out) ||
		wrapped("does not render what Landscaper deployed").MatchString(out) {
		t.Errorf("the refusal of canary's mock item does not say it is not adoptable:\n%s", out)
	}
	_ = os.Remove(filepath.Join(w.dir, "canary.tf"))
}

// importAll imports the four roots with generated configuration and
// returns it; nothing deployed is written, and the next plan is empty.
func (e *recordedEnv) importAll(t *testing.T, w *cliWorkspace, before map[string]deployedObject) string {
	w.write(e.providerHCL() + e.importsHCL(migratedRoots...))
	out := w.mustRun("plan", "-input=false", "-generate-config-out=generated.tf")
	raw, err := os.ReadFile(filepath.Join(w.dir, "generated.tf"))
	if err != nil {
		t.Fatal(err)
	}
	generated := string(raw)
	t.Logf("generated configuration:\n%s", generated)
	for _, root := range migratedRoots {
		if !strings.Contains(generated, fmt.Sprintf("resource \"landscaper_installation\" %q", root)) {
			t.Errorf("no resource generated for %s", root)
		}
	}
	if n := strings.Count(generated, "context: harbor"); n != 2 || strings.Contains(generated, "context: default") {
		t.Errorf("the generated manifests name %d times the Context harbor (want 2: storefront, metrics) or the default Context Landscaper added", n)
	}
	for _, secret := range []string{"kubeconfig", "client-key-data", "client-certificate-data", "token", "password"} {
		if strings.Contains(generated, secret) {
			t.Errorf("generated configuration contains %q", secret)
		}
	}
	if !strings.Contains(out, "4 to import, 0 to add, 0 to change, 0 to destroy") || len(providerWarnings(out)) > 0 {
		t.Fatalf("the plan of the generated configuration does more than import, or warns:\n%s", out)
	}
	e.assertUnchanged("plan -generate-config-out", before)
	out = w.mustRun("apply", "-auto-approve", "-input=false")
	if len(providerWarnings(out)) > 0 {
		t.Errorf("the apply of the imports warns:\n%s", out)
	}
	e.assertUnchanged("the apply of the imports", before)
	// The guide: remove the import blocks once applied.
	w.write(e.providerHCL())
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("plan after the import is not empty (%v):\n%s", err, out)
	}
	e.assertUnchanged("refresh", before)
	for _, root := range migratedRoots {
		if p := e.inventoryParent(root); p != nil {
			t.Errorf("an inventory %s/%s was written although no job ran", p.Namespace, p.Name)
		}
	}
	return generated
}

// exportsAreLandscapers: each root's exports and target exports are what
// Landscaper exported into DataObjects and Targets.
func (e *recordedEnv) exportsAreLandscapers(t *testing.T, w *cliWorkspace) {
	values := stateValues(t, w)
	compared := 0
	for _, root := range migratedRoots {
		data, targets := e.landscapersExports(root)
		got, _ := values[root]["exports"].(map[string]any)
		if !reflect.DeepEqual(normalJSON(t, got), normalJSON(t, data)) {
			t.Errorf("%s: exports %v, Landscaper exported %v", root, got, data)
		}
		compared += len(data)
		gotTargets, _ := values[root]["target_exports"].(map[string]any)
		for name, lsSpec := range targets {
			var target struct{ Spec map[string]any }
			text, _ := gotTargets[name].(string)
			if err := json.Unmarshal([]byte(text), &target); err != nil {
				t.Errorf("%s: target export %s: %v", root, name, err)
				continue
			}
			// Landscaper v0.98 exports a target from type and config
			// alone (DIFFERENCES.md): compare what it kept.
			for k, v := range lsSpec {
				if !reflect.DeepEqual(normalJSON(t, target.Spec[k]), normalJSON(t, v)) {
					t.Errorf("%s: target export %s: spec.%s is %v, Landscaper exported %v", root, name, k, target.Spec[k], v)
				}
			}
			compared++
		}
	}
	if compared < 8 {
		t.Fatalf("only %d exports compared", compared)
	}
}

func normalJSON(t *testing.T, v any) any {
	t.Helper()
	raw, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(raw, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// importDiffering: `terraform import` of catalog while Landscaper's
// DeployItem records another configuration than the manifest renders
// warns, naming the item, and the plan updates it; imported again
// unchanged, the plan is empty.
func (e *recordedEnv) importDiffering(t *testing.T, w *cliWorkspace) {
	addr, id := "landscaper_installation.catalog", e.namespace+"/catalog"
	items := e.dyn.Resource(landscaperGVR("deployitems")).Namespace(e.namespace)
	ctx := context.Background()
	var name string
	for _, o := range e.replay.OfKind("DeployItem") {
		if strings.HasPrefix(o.GetName(), "catalog-catalog-") {
			name = o.GetName()
		}
	}
	original, err := items.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("catalog's DeployItem %q: %v", name, err)
	}
	if _, err := items.Patch(ctx, name, types.MergePatchType, []byte(`{"spec":{"config":{"updateStrategy":"patch"}}}`), metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	w.mustRun("state", "rm", addr)
	out := w.mustRun("import", "-input=false", addr, id)
	if !wrapped("Deploy Item Differs From Landscaper's").MatchString(out) || !wrappedRE(`deploy item \S*catalog/catalog as this provider renders it differs`).MatchString(out) {
		t.Errorf("import of a DeployItem whose config differs does not warn, naming it:\n%s", out)
	}
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err == nil || !strings.Contains(out, "1 to change") {
		t.Errorf("plan after importing a differing DeployItem does not update it (%v):\n%s", err, out)
	}
	now, err := items.Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	now.Object["spec"] = original.Object["spec"]
	if _, err := items.Update(ctx, now, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	w.mustRun("state", "rm", addr)
	w.mustRun("import", "-input=false", addr, id)
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("plan after terraform import is not empty (%v):\n%s", err, out)
	}
}

// reconciledByLandscaper: Landscaper reconciles after the import (its
// Helm deployer upgrades both releases to revision 2). The plan reports
// both releases drifted; the apply takes them over (an upgrade that
// labels them), replacing nothing; the next plan is empty.
func (e *recordedEnv) reconciledByLandscaper(t *testing.T, w *cliWorkspace, before map[string]deployedObject) {
	if err := e.replay.Advance(context.Background(), landscaperrecording.MustLoad(t, "harbor-reconciled")); err != nil {
		t.Fatal(err)
	}
	out, err := w.run("plan", "-detailed-exitcode", "-input=false")
	if err == nil || !strings.Contains(out, "0 to add, 2 to change, 0 to destroy") ||
		!wrappedRE(`release \S+/storefront-api is at revision 2 \(deployed\), recorded revision 1`).MatchString(out) ||
		!wrappedRE(`release \S+/metrics-collector is at revision 2 \(deployed\), recorded revision 1`).MatchString(out) {
		t.Fatalf("the plan after Landscaper's reconcile does not show both releases drifted (%v):\n%s", err, out)
	}
	w.mustRun("apply", "-auto-approve", "-input=false")
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("plan after taking the reconciled releases over is not empty (%v):\n%s", err, out)
	}
	e.sameUIDs("the apply after Landscaper's reconcile", before)
	for _, name := range []string{"storefront-api", "metrics-collector"} {
		rel := e.release(t, name)
		if rel.Version != 3 || rel.Labels[deployer.OwnerLabel] == "" {
			t.Errorf("release %s is at revision %d with labels %v, want revision 3 labeled as this provider's", name, rel.Version, rel.Labels)
		}
	}
}

// release is the newest revision of a Helm release in the target namespace.
func (e *recordedEnv) release(t *testing.T, name string) *release.Release {
	t.Helper()
	rel, err := driver.NewSecrets(e.kube.CoreV1().Secrets(e.target)).Get(lastReleaseKey(t, e, name))
	if err != nil {
		t.Fatalf("release %s: %v", name, err)
	}
	return rel
}

func lastReleaseKey(t *testing.T, e *recordedEnv, name string) string {
	t.Helper()
	list, err := e.kube.CoreV1().Secrets(e.target).List(context.Background(), metav1.ListOptions{LabelSelector: "owner=helm,name=" + name})
	if err != nil {
		t.Fatal(err)
	}
	last, version := "", 0
	for _, s := range list.Items {
		var v int
		if _, err := fmt.Sscanf(s.Labels["version"], "%d", &v); err == nil && v > version {
			last, version = s.Name, v
		}
	}
	return last
}

// endStateHCL (main.tf; generated.tf is rewritten) moves what the roots read from Landscaper's objects into
// manifest_objects, as the guide's last step does: the DataObjects and the
// Context as `kubectl get -o yaml` printed them, the Targets as
// landscaper_target resources (the kubeconfig stays out of the
// configuration), and for orders the DataObject and Target catalog
// exports, built from catalog's exports.
func (e *recordedEnv) endStateHCL(t *testing.T, w *cliWorkspace, generated string) string {
	e.exported(w, "objects.yaml", "dataobjects/apps-namespace", "dataobjects/catalog-settings", "dataobjects/storefront-settings",
		"dataobjects/chart-registry", "contexts/harbor")
	objects := map[string]string{
		"catalog":    `join("\n---\n", [local.objects, landscaper_target.apps_inline.target])`,
		"storefront": `join("\n---\n", [local.objects, landscaper_target.apps_secret.target])`,
		"metrics":    `join("\n---\n", [local.objects, landscaper_target.apps_inline.target])`,
		"orders": `join("\n---\n", [local.objects,
    yamlencode({ apiVersion = "landscaper.gardener.cloud/v1alpha1", kind = "DataObject", metadata = { name = "catalog-url" },
      data = landscaper_installation.catalog.exports.url }),
    jsonencode(merge(jsondecode(landscaper_installation.catalog.target_exports["appsCluster"]), { metadata = { name = "apps-cluster" } })),
  ])`,
	}
	blocks := strings.Split(generated, "resource \"landscaper_installation\" ")
	for i, b := range blocks[1:] {
		root := strings.Trim(strings.Fields(b)[0], `"`)
		if objects[root] == "" || !strings.Contains(b, "manifest_objects") {
			t.Fatalf("generated block %q has no manifest_objects to set", root)
		}
		blocks[i+1] = regexp.MustCompile(`manifest_objects\s*=\s*null.*`).ReplaceAllString(b, "manifest_objects = "+objects[root])
	}
	if err := os.WriteFile(filepath.Join(w.dir, "generated.tf"), []byte(strings.Join(blocks, "resource \"landscaper_installation\" ")), 0o600); err != nil {
		t.Fatal(err)
	}
	return e.providerHCL() + fmt.Sprintf(`
locals {
  objects = data.landscaper_manifests.objects.objects
}

data "landscaper_manifests" "objects" {
  yaml = file("${path.module}/objects.yaml")
}

resource "landscaper_target" "apps_inline" {
  name       = "apps-inline"
  kubeconfig = file(%[1]q)
}

resource "landscaper_target" "apps_secret" {
  name       = "apps-secret"
  kubeconfig = file(%[1]q)
}
`, localcluster.KubeconfigPath(t))
}

// withoutLandscaper: the end state, applied, replaces nothing; once every
// Landscaper object is gone from the host cluster (Landscaper forgot the
// installations and was uninstalled with its CRDs), the plan is empty.
func (e *recordedEnv) withoutLandscaper(t *testing.T, w *cliWorkspace, generated string, before map[string]deployedObject) {
	w.write(e.endStateHCL(t, w, generated))
	if out := w.mustRun("apply", "-auto-approve", "-input=false"); len(providerWarnings(out)) > 0 {
		t.Errorf("the apply of the end state warns: %v", providerWarnings(out))
	}
	e.sameUIDs("the apply of the end state", before)
	// That apply is the first job of catalog and orders: it takes their
	// objects over (ownership labels, inventory), as every job does.
	for _, root := range migratedRoots {
		if e.inventoryParent(root) == nil {
			t.Errorf("the job of %s wrote no inventory", root)
		}
	}
	for _, name := range []string{"catalog-content", "orders"} {
		cm, err := e.kube.CoreV1().ConfigMaps(e.target).Get(context.Background(), name, metav1.GetOptions{})
		if err != nil || cm.Labels[deployer.OwnerLabel] == "" {
			t.Errorf("ConfigMap %s after the first job: %v, labels %v; want this provider's owner label", name, err, cm.GetLabels())
		}
	}
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("plan of the end state is not empty (%v):\n%s", err, out)
	}
	e.removeLandscaper()
	if out, err := w.run("plan", "-detailed-exitcode", "-input=false"); err != nil {
		t.Fatalf("plan of the end state without Landscaper's objects is not empty (%v):\n%s", err, out)
	}
}

// destroyAll: destroy removes everything deployed — but the ConfigMap
// storefront's blueprint deploys with policy keep, which Landscaper leaves
// too — and the inventories.
func (e *recordedEnv) destroyAll(t *testing.T, w *cliWorkspace) {
	w.mustRun("destroy", "-auto-approve", "-input=false")
	if left := keys(e.deployed()); len(left) != 1 || left[0] != "configmaps/storefront-theme" {
		t.Errorf("destroy left %v, want only the ConfigMap of policy keep", left)
	}
	for _, root := range migratedRoots {
		if p := e.inventoryParent(root); p != nil {
			t.Errorf("destroy left the inventory %s/%s", p.Namespace, p.Name)
		}
	}
}

func keys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

// wrappedRE is the regular expression pattern with each space matching
// any run of white space, as the CLI wraps diagnostics.
func wrappedRE(pattern string) *regexp.Regexp {
	return regexp.MustCompile(`(?s)` + strings.Join(strings.Fields(pattern), `\s+`))
}

// providerWarnings are the warnings in a CLI's output but those of the
// CLI itself about the test's setup.
func providerWarnings(out string) []string {
	var found []string
	for _, m := range regexp.MustCompile(`Warning: (.*)`).FindAllStringSubmatch(out, -1) {
		switch {
		case strings.HasPrefix(m[1], "Provider development overrides"), strings.HasPrefix(m[1], "Config generation is experimental"):
		default:
			found = append(found, m[1])
		}
	}
	return found
}
