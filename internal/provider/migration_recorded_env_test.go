package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperstate"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/landscaperrecording"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/ociregistry"
)

// recordedEnv is a recording of Landscaper v0.98's own controllers
// (landscaperrecording, landscape "harbor") replayed into the local
// cluster: Landscaper's objects in the test namespace (the host), what its
// deployers deployed in another (the target), its chart in a registry on
// loopback.
type recordedEnv struct {
	*accEnv
	target   string
	replay   *landscaperrecording.Replayed
	dyn      dynamic.Interface
	registry string
	cacheDir string
}

func newRecordedEnv(t *testing.T, recording string) *recordedEnv {
	e := newAccEnv(t)
	target := localcluster.Namespace(t)
	reg := ociregistry.Start(t, ociregistry.Options{})
	kubeconfig := localcluster.Kubeconfig(t)
	inputs, err := landscaperrecording.BuildLandscape("harbor", landscaperrecording.LandscapeOptions{Kubeconfig: kubeconfig, Registry: reg.Host()})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := inputs.PushCharts(reg.Host()); err != nil {
		t.Fatal(err)
	}
	r := landscaperrecording.Install(t, localcluster.RESTConfig(t), landscaperrecording.MustLoad(t, recording), landscaperrecording.ReplayOptions{
		HostNamespace: e.namespace, TargetNamespace: target, Kubeconfig: kubeconfig, Registry: reg.Host()})
	dyn, err := dynamic.NewForConfig(localcluster.RESTConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	return &recordedEnv{accEnv: e, target: target, replay: r, dyn: dyn, registry: reg.Host(), cacheDir: t.TempDir()}
}

// providerHCL reads Landscaper's objects from the local cluster and
// charts from the replay's registry.
func (e *recordedEnv) providerHCL() string {
	return fmt.Sprintf(`
provider "landscaper" {
  kubernetes = { config_path = %q }
  registry   = { cache_dir = %q }
}
`, localcluster.KubeconfigPath(e.t), e.cacheDir)
}

// importsHCL are import blocks taking over the root Installations, each
// as landscaper_installation.<root>.
func (e *recordedEnv) importsHCL(roots ...string) string {
	var b strings.Builder
	for _, root := range roots {
		fmt.Fprintf(&b, "\nimport {\n  to = landscaper_installation.%s\n  id = %q\n}\n", root, e.namespace+"/"+root)
	}
	return b.String()
}

// deployedResources are the kinds Landscaper's deployers made in the
// target namespace (Helm's release records are Secrets).
var deployedResources = []schema.GroupVersionResource{
	{Version: "v1", Resource: "configmaps"}, {Version: "v1", Resource: "secrets"}, {Version: "v1", Resource: "services"},
	{Version: "v1", Resource: "serviceaccounts"}, {Group: "apps", Version: "v1", Resource: "deployments"},
	{Group: "apps", Version: "v1", Resource: "statefulsets"},
}

// deployedObject is what tells whether an object was written: its UID,
// generation, labels, annotations and who wrote it; the resourceVersion
// too, except for workloads, whose status the cluster's controllers
// keep writing.
type deployedObject struct {
	UID, Version string
	Generation   int64
	Labels       map[string]string
	Annotations  map[string]string
	Managers     []string
}

// deployed is every object of deployedResources in the target namespace
// by "resource/name", without the namespace's own (root CA, default
// service account) and this provider's inventory.
func (e *recordedEnv) deployed() map[string]deployedObject {
	e.t.Helper()
	out := map[string]deployedObject{}
	for _, gvr := range deployedResources {
		list, err := e.dyn.Resource(gvr).Namespace(e.target).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		for _, o := range list.Items {
			name := o.GetName()
			if name == "kube-root-ca.crt" || (gvr.Resource == "serviceaccounts" && name == "default") || strings.HasPrefix(name, "landscaper-inventory-") {
				continue
			}
			d := deployedObject{UID: string(o.GetUID()), Generation: o.GetGeneration(), Labels: o.GetLabels(), Annotations: o.GetAnnotations()}
			if gvr.Group != "apps" {
				d.Version = o.GetResourceVersion()
			}
			for _, mf := range o.GetManagedFields() {
				if mf.Subresource == "" {
					d.Managers = append(d.Managers, mf.Manager)
				}
			}
			sort.Strings(d.Managers)
			out[gvr.Resource+"/"+name] = d
		}
	}
	return out
}

// assertUnchanged fails if step wrote to anything deployed.
func (e *recordedEnv) assertUnchanged(step string, before map[string]deployedObject) {
	e.t.Helper()
	after := e.deployed()
	for k, b := range before {
		a, ok := after[k]
		switch {
		case !ok:
			e.t.Errorf("%s deleted %s", step, k)
		case fmt.Sprint(a) != fmt.Sprint(b):
			e.t.Errorf("%s wrote to %s:\nbefore %+v\nafter  %+v", step, k, b, a)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok {
			e.t.Errorf("%s created %s", step, k)
		}
	}
}

// sameUIDs fails unless every object of before still exists as the same
// object and nothing was added but Helm's release records (later
// revisions) — what "redeployed nothing" means after a job that labels.
func (e *recordedEnv) sameUIDs(step string, before map[string]deployedObject) {
	e.t.Helper()
	after := e.deployed()
	for k, b := range before {
		if a, ok := after[k]; !ok || a.UID != b.UID {
			e.t.Errorf("%s replaced or deleted %s", step, k)
		}
	}
	for k := range after {
		if _, ok := before[k]; !ok && !strings.HasPrefix(k, "secrets/sh.helm.release.v1.") {
			e.t.Errorf("%s created %s", step, k)
		}
	}
}

// stateValues is `show -json`'s values of each installation by resource
// name.
func stateValues(t *testing.T, w *cliWorkspace) map[string]map[string]any {
	t.Helper()
	out := w.mustRun("show", "-json")
	var doc struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Type, Name string
					Values     map[string]any
				}
			} `json:"root_module"`
		}
	}
	if err := json.Unmarshal([]byte(out[strings.Index(out, "{"):]), &doc); err != nil {
		t.Fatalf("show -json: %v\n%s", err, out)
	}
	values := map[string]map[string]any{}
	for _, r := range doc.Values.RootModule.Resources {
		if r.Type == "landscaper_installation" {
			values[r.Name] = r.Values
		}
	}
	return values
}

// landscapersExports are the data and target exports Landscaper wrote for
// root: the DataObjects and Targets its spec.exports name.
func (e *recordedEnv) landscapersExports(root string) (data map[string]any, targets map[string]map[string]any) {
	e.t.Helper()
	inst := e.replay.Find("Installation", root)
	if inst == nil {
		e.t.Fatalf("the recording has no Installation %s", root)
	}
	var spec struct {
		Exports struct {
			Data    []struct{ Name, DataRef string }
			Targets []struct{ Name, Target string }
		}
	}
	raw, _ := json.Marshal(inst.Object["spec"])
	if err := json.Unmarshal(raw, &spec); err != nil {
		e.t.Fatal(err)
	}
	data, targets = map[string]any{}, map[string]map[string]any{}
	for _, d := range spec.Exports.Data {
		o := e.get("dataobjects", landscaperstate.DataObjectName("", d.DataRef))
		data[d.Name] = o.Object["data"]
	}
	for _, tg := range spec.Exports.Targets {
		o := e.get("targets", landscaperstate.DataObjectName("", tg.Target))
		s, _ := o.Object["spec"].(map[string]any)
		targets[tg.Name] = s
	}
	return data, targets
}

// get reads a Landscaper object of the host namespace.
func (e *recordedEnv) get(resource, name string) *unstructured.Unstructured {
	e.t.Helper()
	o, err := e.dyn.Resource(landscaperGVR(resource)).Namespace(e.namespace).Get(context.Background(), name, metav1.GetOptions{})
	if err != nil {
		e.t.Fatalf("%s %s: %v", resource, name, err)
	}
	return o
}

func landscaperGVR(resource string) schema.GroupVersionResource {
	return schema.GroupVersionResource{Group: "landscaper.gardener.cloud", Version: "v1alpha1", Resource: resource}
}

// exported writes the host objects named ("dataobjects/x", "contexts/y")
// into file in the workspace as `kubectl get -o yaml` prints each —
// status, server metadata and all —, as the guide has the user do, and
// as it says deletes a Context's registryPullSecrets and configurations.
func (e *recordedEnv) exported(w *cliWorkspace, file string, objects ...string) {
	e.t.Helper()
	var docs []string
	for _, ref := range objects {
		resource, name, _ := strings.Cut(ref, "/")
		o := e.get(resource, name)
		if resource == "contexts" {
			delete(o.Object, "registryPullSecrets")
			delete(o.Object, "configurations")
		}
		b, err := yaml.Marshal(o.Object)
		if err != nil {
			e.t.Fatal(err)
		}
		docs = append(docs, string(b))
	}
	if err := os.WriteFile(filepath.Join(w.dir, file), []byte(strings.Join(docs, "---\n")), 0o600); err != nil {
		e.t.Fatal(err)
	}
}

// removeLandscaper deletes every Landscaper object of the host namespace
// — what remains once Landscaper forgot the installations
// (delete-without-uninstall) and was uninstalled with its CRDs; nothing
// deployed is touched.
func (e *recordedEnv) removeLandscaper() {
	e.t.Helper()
	ctx := context.Background()
	if err := e.replay.RemoveFinalizers(ctx); err != nil {
		e.t.Fatal(err)
	}
	for _, res := range []string{"installations", "executions", "deployitems", "dataobjects", "targets", "contexts"} {
		client := e.dyn.Resource(landscaperGVR(res)).Namespace(e.namespace)
		if err := client.DeleteCollection(ctx, metav1.DeleteOptions{}, metav1.ListOptions{}); err != nil {
			e.t.Fatalf("deleting %s: %v", res, err)
		}
		left, err := client.List(ctx, metav1.ListOptions{})
		if err != nil {
			e.t.Fatal(err)
		}
		for _, o := range left.Items { // finalizers of objects made after the replay
			if _, err := client.Patch(ctx, o.GetName(), types.MergePatchType, []byte(`{"metadata":{"finalizers":null}}`), metav1.PatchOptions{}); err != nil && !apierrors.IsNotFound(err) {
				e.t.Fatal(err)
			}
		}
	}
}
