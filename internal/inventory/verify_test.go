package inventory

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// victimStatus is the provider status of a manifest item that recorded a
// ConfigMap in another namespace: what a planted record lists to have it
// deleted.
const victimStatus = `{"managedResources":[{"policy":"manage","resource":{"apiVersion":"v1","kind":"ConfigMap","name":"victim","namespace":"kube-system"}}]}`

// plantedParent is the parent Secret of installation "root" in namespace
// ns, as this package writes it for instance "instance-1" with one item
// listing the victim, after edit changed it (nil: unchanged).
func plantedParent(t *testing.T, edit func(s *corev1.Secret, rec *Record)) *unstructured.Unstructured {
	t.Helper()
	name := ParentName("root")
	c := content{installation: "root", instance: "instance-1"}
	sec, err := c.secret(name, "ns")
	if err != nil {
		t.Fatal(err)
	}
	rec := Record{Version: recordVersion, Installation: "root", Instance: "instance-1",
		Items: []RecordedItem{recordedItem("root/victim", "landscaper.gardener.cloud/kubernetes-manifest", victimStatus)}}
	if edit != nil {
		edit(sec, &rec)
	}
	raw, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	sec.Data[recordKey] = gzipped(t, raw)
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(sec)
	if err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: u}
}

func gzipped(t *testing.T, raw []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	if _, err := zw.Write(raw); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// loadFrom is what a job of installation root, instance instance-2, that
// starts from a lost state rebuilds from a cluster whose Secret of the
// parent's name is stored, and what it reports as ignored.
func loadFrom(t *testing.T, stored *unstructured.Unstructured) (*Recorder, []string, error) {
	t.Helper()
	r := NewRecorder(target.NewPool(), "root", "instance-2")
	tg := clusterTarget(t, "6443")
	clients := mustClients(t, r, tg)
	r.clusters[clients], r.targets[clients] = newParentIn(&slowSecrets{stored: stored}, "ns", "root", "instance-2"), tg
	r.AdoptRecorded()
	snap, err := r.Rebuild(context.Background(), []api.Target{tg})
	var ids []string
	for _, in := range snap.Installations() {
		for _, it := range in.Execution.DeployItems {
			if !it.Rebuilt {
				t.Errorf("item %s was rebuilt without Rebuilt", it.ID)
			}
			ids = append(ids, it.ID)
		}
	}
	return r, ids, err
}

// A Secret planted under the predictable name of an installation's
// inventory is never used: whatever about it is not what this package
// writes for the installation — type, labels, annotations, the record's
// installation and instance, an item outside the installation's tree or
// recorded twice, a record that inflates beyond maxRecordSize, a record
// that is not gzip — the job that starts from a lost state rebuilds
// nothing from it, and Ignored names the Secret and why. Before, the job
// rebuilt the victim's item and deleted the victim.
func TestRecorder_LoadIgnoresPlantedParents(t *testing.T) {
	if _, ids, err := loadFrom(t, plantedParent(t, nil)); err != nil || len(ids) != 1 || ids[0] != "root/victim" {
		t.Fatalf("the installation's own parent: rebuilt %v, %v", ids, err)
	}
	pad := strings.Repeat(" ", maxRecordSize) // valid JSON whitespace, beyond the bound once the record is added
	for _, c := range []struct {
		name, why string
		edit      func(*corev1.Secret, *Record)
	}{
		{"an Opaque Secret", "its type", func(s *corev1.Secret, _ *Record) { s.Type = corev1.SecretTypeOpaque }},
		{"no labels", "is not the ApplySet ID", func(s *corev1.Secret, _ *Record) { s.Labels = nil }},
		{"no instance label", "has no label", func(s *corev1.Secret, _ *Record) { delete(s.Labels, "landscaper.gardener.cloud/installation-instance") }},
		{"another tool", "applyset.kubernetes.io/tooling", func(s *corev1.Secret, _ *Record) { s.Annotations[ToolingAnnotation] = "kubectl/v1.30" }},
		{"another installation's annotation", "does not name installation", func(s *corev1.Secret, _ *Record) { s.Annotations[InstallationAnnotation] = "other" }},
		{"another installation's record", `names installation "other"`, func(_ *corev1.Secret, r *Record) { r.Installation = "other" }},
		{"another instance's record", `names instance "instance-9"`, func(_ *corev1.Secret, r *Record) { r.Instance = "instance-9" }},
		{"an item of another installation", `not an item of installation "root"`, func(_ *corev1.Secret, r *Record) {
			r.Items = append(r.Items, recordedItem("other/x", "t", `{}`))
		}},
		{"an item whose ID does not end in its name", "does not end in its name", func(_ *corev1.Secret, r *Record) { r.Items[0].Name = "x" }},
		{"an item recorded twice", "twice", func(_ *corev1.Secret, r *Record) { r.Items = append(r.Items, r.Items[0]) }},
		{"an item without type", "has no type", func(_ *corev1.Secret, r *Record) { r.Items[0].Type = "" }},
	} {
		t.Run(c.name, func(t *testing.T) {
			r, ids, err := loadFrom(t, plantedParent(t, c.edit))
			if err != nil || len(ids) != 0 {
				t.Fatalf("rebuilt %v (%v) from %s", ids, err, c.name)
			}
			assertIgnored(t, r, c.why)
		})
	}
	t.Run("a record beyond the bound", func(t *testing.T) {
		planted := plantedParent(t, nil)
		raw, _ := json.Marshal(Record{Version: recordVersion, Installation: "root", Instance: "instance-1",
			Items: []RecordedItem{recordedItem("root/victim", "landscaper.gardener.cloud/kubernetes-manifest", victimStatus)}})
		zipped := gzipped(t, append([]byte(pad), raw...))
		if len(zipped) > 1<<20 {
			t.Fatalf("the planted record is %d bytes compressed, more than a Secret holds", len(zipped))
		}
		_ = unstructured.SetNestedField(planted.Object, b64(zipped), "data", recordKey)
		r, ids, err := loadFrom(t, planted)
		if err != nil || len(ids) != 0 {
			t.Fatalf("rebuilt %v (%v) from a record of %d MiB", ids, err, (len(pad)+len(raw))>>20)
		}
		assertIgnored(t, r, "more than 67108864 bytes uncompressed")
	})
	t.Run("a record that is not gzip", func(t *testing.T) {
		planted := plantedParent(t, nil)
		_ = unstructured.SetNestedField(planted.Object, b64([]byte(`{"version":1}`)), "data", recordKey)
		r, ids, err := loadFrom(t, planted)
		if err != nil || len(ids) != 0 {
			t.Fatalf("rebuilt %v (%v)", ids, err)
		}
		assertIgnored(t, r, "not gzip")
	})
}

func assertIgnored(t *testing.T, r *Recorder, why string) {
	t.Helper()
	ignored := r.Ignored()
	if len(ignored) != 1 || !strings.Contains(ignored[0], "ns/"+ParentName("root")) || !strings.Contains(ignored[0], why) {
		t.Fatalf("Ignored() = %q, want the Secret ns/%s named with %q", ignored, ParentName("root"), why)
	}
}

// A record of another record version is an error, not ignored: a newer
// provider wrote it, and overwriting it would lose what it records.
func TestRecorder_LoadRefusesNewerRecordVersions(t *testing.T) {
	_, _, err := loadFrom(t, plantedParent(t, func(_ *corev1.Secret, r *Record) { r.Version = splitRecordVersion + 1 }))
	if err == nil || !strings.Contains(err.Error(), "a newer provider wrote it") {
		t.Fatalf("Rebuild = %v, want an error about the record version", err)
	}
}

// A record that a newer instance than the job's owns is left to it.
func TestLoad_LeavesNewerInstancesRecords(t *testing.T) {
	planted := plantedParent(t, nil)
	r := NewRecorder(target.NewPool(), "root", "instance-0")
	tg := clusterTarget(t, "6443")
	clients := mustClients(t, r, tg)
	r.clusters[clients], r.targets[clients] = newParentIn(&slowSecrets{stored: planted}, "ns", "root", "instance-0"), tg
	if snap, err := r.Rebuild(context.Background(), []api.Target{tg}); err != nil || !snap.Empty() {
		t.Fatalf("an older instance rebuilt %v (%v) from a newer one's record", snap, err)
	}
}

// No record is written that its reader would refuse: the writer refuses
// a single-Secret record beyond maxRecordSize and a split one beyond
// maxSplitRecordSize, naming the limit.
func TestContent_RefusesRecordsBeyondTheBound(t *testing.T) {
	// The size is checked before anything is encoded: the entry's bytes
	// need not be JSON here.
	c := content{installation: "root", instance: "i", items: []entry{{id: "root/big", raw: make([]byte, maxRecordSize)}}}
	if _, err := c.object("n", "ns"); err == nil || !strings.Contains(err.Error(), "more than the 67108864 an inventory may hold") {
		t.Fatalf("object = %v, want the record refused", err)
	}
	c.items[0].raw = make([]byte, maxSplitRecordSize)
	if _, err := c.layout("n", "ns", nil); err == nil || !strings.Contains(err.Error(), "more than the 268435456 an inventory may hold") {
		t.Fatalf("layout = %v, want the record refused", err)
	}
}

func b64(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

// A job that deploys to the cluster replaces a planted Secret with the
// installation's own parent (a Secret of another type cannot be turned
// into one, and writing over it would keep what else it holds), and
// starts from nothing it listed.
func TestParent_ReplacesAPlantedSecret(t *testing.T) {
	planted := plantedParent(t, func(s *corev1.Secret, _ *Record) {
		s.Type, s.Labels, s.Annotations = corev1.SecretTypeOpaque, map[string]string{"planted": "yes"}, nil
	})
	store := &slowSecrets{stored: planted}
	p := newParentIn(store, "ns", "root", "instance-2")
	if err := p.open(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	p.put(recordedItem("root/a", "t", `{}`))
	if err := p.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if store.deletes != 1 || store.stored == nil || store.stored.GetLabels()["planted"] != "" {
		t.Fatalf("the planted Secret was not replaced: %d deletes, now %v", store.deletes, store.stored)
	}
	if rec := store.record(t); rec.Instance != "instance-2" || len(rec.Items) != 1 || rec.Items[0].ID != "root/a" {
		t.Fatalf("the parent records %+v, want instance-2's item root/a alone", rec)
	}
}
