package landscaperrecording

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/release"
	"helm.sh/helm/v3/pkg/storage/driver"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

func TestMain(m *testing.M) { localcluster.Main(m) }

// replayed installs rec in fresh namespaces of the local cluster.
func replayed(t *testing.T, rec *Recording) (*Replayed, *rest.Config) {
	t.Helper()
	cfg := localcluster.RESTConfig(t)
	opts := ReplayOptions{HostNamespace: localcluster.Namespace(t), TargetNamespace: localcluster.Namespace(t),
		Kubeconfig: localcluster.Kubeconfig(t), Registry: "127.0.0.1:1"}
	return Install(t, cfg, rec, opts), cfg
}

// A replay reproduces the recording: recording the replayed namespaces
// again gives back every object as recorded — labels, annotations,
// owner references, data, status, Secret data, Helm release records,
// compressed templates —, renamed to the new namespaces and registry,
// every recorded UID replaced by its replayed object's.
func TestReplay_ReproducesTheRecording(t *testing.T) {
	for _, name := range Recordings() {
		t.Run(name, func(t *testing.T) {
			rec := MustLoad(t, name)
			r, cfg := replayed(t, rec)
			if len(r.Skipped) > 0 {
				t.Logf("not replayed (kinds the cluster does not serve): %v", r.Skipped)
			}
			again, err := Record(context.Background(), cfg, RecordOptions{Meta: r.Meta, Kubeconfigs: []string{localcluster.Kubeconfig(t)}})
			if err != nil {
				t.Fatal(err)
			}
			want := expected(t, rec, r)
			compareObjects(t, "host", want.Host, again.Host, r.Skipped)
			compareObjects(t, "target", want.Target, again.Target, nil)
		})
	}
}

// expected is rec as a replay should leave it, recorded again.
func expected(t *testing.T, rec *Recording, r *Replayed) *Recording {
	t.Helper()
	want, err := rec.Rewrite(r.opts)
	if err != nil {
		t.Fatal(err)
	}
	uids := r.uidMapper()
	redact := strings.NewReplacer(r.opts.Kubeconfig, KubeconfigPlaceholder).Replace
	for _, o := range want.Objects() {
		for _, fn := range []func(string) string{uids, redact} {
			if err := mapStrings(o, fn); err != nil {
				t.Fatal(err)
			}
		}
	}
	return want
}

// comparableOf drops what a replay cannot reproduce: the server's
// bookkeeping, the generation (and a status' observedGeneration, which
// follows it) and a Service's allocated IPs.
func comparableOf(o *unstructured.Unstructured) map[string]any {
	o = o.DeepCopy()
	for _, f := range []string{"uid", "generation", "managedFields"} {
		unstructured.RemoveNestedField(o.Object, "metadata", f)
	}
	unstructured.RemoveNestedField(o.Object, "status", "observedGeneration")
	unstructured.RemoveNestedField(o.Object, "metadata", "annotations", "deployment.kubernetes.io/revision")
	if o.GetKind() == "Service" {
		freeServiceIPs(o)
	}
	return o.Object
}

func compareObjects(t *testing.T, what string, want, got []*unstructured.Unstructured, skipped []string) {
	t.Helper()
	index := map[string]*unstructured.Unstructured{}
	for _, o := range got {
		index[o.GetKind()+" "+o.GetName()] = o
	}
	left := map[string]bool{}
	for _, s := range skipped {
		left[s] = true
	}
	for _, w := range want {
		key := w.GetKind() + " " + w.GetName()
		if left[key] {
			continue
		}
		g := index[key]
		if g == nil {
			t.Errorf("%s: %s was not replayed", what, key)
			continue
		}
		delete(index, key)
		if a, b := comparableOf(w), comparableOf(g); !reflect.DeepEqual(a, b) {
			wj, _ := json.MarshalIndent(a, "", " ")
			gj, _ := json.MarshalIndent(b, "", " ")
			t.Errorf("%s: %s differs\nrecorded:\n%s\nreplayed:\n%s", what, key, wj, gj)
		}
	}
	for key := range index {
		t.Errorf("%s: %s is there but was not recorded", what, key)
	}
}

// References after a replay point at the replayed objects: owner
// references at their owners, the deployers' provider status at the
// deployed objects by UID, and Helm reads the release records.
func TestReplay_ReferencesAreConsistent(t *testing.T) {
	rec := MustLoad(t, "harbor-installed")
	r, cfg := replayed(t, rec)
	uids := map[string]string{}
	for _, o := range r.Objects() {
		uids[string(o.GetUID())] = o.GetKind() + " " + o.GetName()
	}
	owners, managed := 0, 0
	for _, o := range r.Host {
		for _, ref := range o.GetOwnerReferences() {
			owners++
			if uids[string(ref.UID)] != ref.Kind+" "+ref.Name {
				t.Errorf("%s %s: owner %s %s has UID %s, which is %q", o.GetKind(), o.GetName(), ref.Kind, ref.Name, ref.UID, uids[string(ref.UID)])
			}
		}
		list, _, _ := unstructured.NestedSlice(o.Object, "status", "providerStatus", "managedResources")
		for _, e := range list {
			res, _, _ := unstructured.NestedMap(e.(map[string]any), "resource")
			uid, _ := res["uid"].(string)
			if uid == "" {
				continue
			}
			managed++
			if uids[uid] != res["kind"].(string)+" "+res["name"].(string) {
				t.Errorf("%s %s: managed resource %v has UID %s, which is %q", o.GetKind(), o.GetName(), res, uid, uids[uid])
			}
		}
	}
	if owners == 0 || managed == 0 {
		t.Fatalf("%d owner references and %d managed resources with UID: nothing was checked", owners, managed)
	}

	clients, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	releases, err := driver.NewSecrets(clients.CoreV1().Secrets(r.Meta.TargetNamespace)).List(func(*release.Release) bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	recorded := 0
	for _, o := range rec.Target {
		if o.Object["type"] == helmReleaseType {
			recorded++
		}
	}
	if len(releases) != recorded || recorded == 0 {
		t.Fatalf("Helm reads %d releases, %d recorded", len(releases), recorded)
	}
	for _, rel := range releases {
		if rel.Namespace != r.Meta.TargetNamespace || rel.Info == nil {
			t.Errorf("release %s: namespace %s, info %v", rel.Name, rel.Namespace, rel.Info)
		}
	}
	if _, err := clients.CoreV1().Namespaces().Get(context.Background(), r.Meta.HostNamespace, metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
}

// Advancing a replay of "installed" to "reconciled" leaves what a replay
// of "reconciled" would: Landscaper's recreated DataObjects are new
// objects, what it updated keeps its UID (the deployed objects, the
// revision 1 release record, now superseded), and Helm sees revision 2.
func TestAdvance_ToTheReconciledRecording(t *testing.T) {
	installed, reconciled := MustLoad(t, "harbor-installed"), MustLoad(t, "harbor-reconciled")
	r, cfg := replayed(t, installed)
	before := map[string]string{}
	for _, o := range r.Target {
		before[o.GetKind()+" "+o.GetName()] = string(o.GetUID())
	}
	if err := r.Advance(context.Background(), reconciled); err != nil {
		t.Fatal(err)
	}
	for _, o := range r.Target {
		if uid, ok := before[o.GetKind()+" "+o.GetName()]; ok && uid != string(o.GetUID()) {
			t.Errorf("%s %s was replaced, not updated", o.GetKind(), o.GetName())
		}
	}
	again, err := Record(context.Background(), cfg, RecordOptions{Meta: r.Meta, Kubeconfigs: []string{localcluster.Kubeconfig(t)}})
	if err != nil {
		t.Fatal(err)
	}
	want := expected(t, reconciled, r)
	compareObjects(t, "host", want.Host, again.Host, nil)
	compareObjects(t, "target", want.Target, again.Target, nil)

	clients, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	releases := driver.NewSecrets(clients.CoreV1().Secrets(r.Meta.TargetNamespace))
	for _, name := range []string{"storefront-api", "metrics-collector"} {
		history, err := releases.Query(map[string]string{"name": name, "owner": "helm"})
		if err != nil {
			t.Fatal(err)
		}
		status := map[int]release.Status{}
		for _, rel := range history {
			status[rel.Version] = rel.Info.Status
		}
		if len(status) != 2 || status[1] != release.StatusSuperseded || status[2] != release.StatusDeployed {
			t.Errorf("release %s: revisions %v, want 1 superseded and 2 deployed", name, status)
		}
	}
}
