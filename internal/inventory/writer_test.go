package inventory

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// slowSecrets stores one Secret; every write takes a while, like a round
// trip to the API server, and counts how many run at once.
type slowSecrets struct {
	dynamic.ResourceInterface // unused methods panic
	mu                        sync.Mutex
	stored                    *unstructured.Unstructured
	deletes                   int
	writes, inFlight, maxIn   atomic.Int32
	gets                      atomic.Int32
}

func (s *slowSecrets) Apply(_ context.Context, _ string, obj *unstructured.Unstructured, _ metav1.ApplyOptions, _ ...string) (*unstructured.Unstructured, error) {
	n := s.inFlight.Add(1)
	defer s.inFlight.Add(-1)
	for {
		m := s.maxIn.Load()
		if n <= m || s.maxIn.CompareAndSwap(m, n) {
			break
		}
	}
	s.writes.Add(1)
	time.Sleep(5 * time.Millisecond)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stored = obj.DeepCopy()
	return obj, nil
}

func (s *slowSecrets) Get(_ context.Context, name string, _ metav1.GetOptions, _ ...string) (*unstructured.Unstructured, error) {
	s.gets.Add(1)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stored == nil {
		return nil, apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
	}
	return s.stored.DeepCopy(), nil
}

func (s *slowSecrets) Delete(_ context.Context, name string, _ metav1.DeleteOptions, _ ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.deletes++
	if s.stored == nil {
		return apierrors.NewNotFound(schema.GroupResource{Resource: "secrets"}, name)
	}
	s.stored = nil
	return nil
}

func (s *slowSecrets) record(t *testing.T) Record {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	var sec corev1.Secret
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(s.stored.Object, &sec); err != nil {
		t.Fatal(err)
	}
	rec, err := readRecord(&sec)
	if err != nil {
		t.Fatal(err)
	}
	return rec
}

// A 1000-item job does not send 1000 sequential writes: while one write
// is in flight the changes pile up and the next write carries all of them;
// never more than one write runs, and the last one has every item.
func TestParent_WritesAreCoalesced(t *testing.T) {
	store := &slowSecrets{}
	p := newParentIn(store, "ns", "root", "instance-1")
	if err := p.open(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	const items = 1000
	var wg sync.WaitGroup
	for i := range items {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p.put(recordItem(deployer.Item{ID: fmt.Sprintf("root/item-%d", i), Name: fmt.Sprintf("item-%d", i), Type: "t"}, deployer.Result{
				ProviderStatus: json.RawMessage(`{"managedResources":[{"resource":{"apiVersion":"v1","kind":"ConfigMap","name":"x","namespace":"other"}}]}`),
				Objects:        []deployer.ObjectRef{{APIVersion: "v1", Kind: "ConfigMap", Namespace: "other", Name: "x"}},
			}))
			time.Sleep(time.Duration(i%7) * time.Millisecond) // items finish at different times
		}()
	}
	wg.Wait()
	if err := p.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := store.maxIn.Load(); got != 1 {
		t.Errorf("%d writes ran at once, want 1", got)
	}
	t.Logf("%d writes for %d items", store.writes.Load(), items)
	if got := store.writes.Load(); got > items/10 {
		t.Errorf("%d writes for %d items, want them coalesced", got, items)
	}
	rec := store.record(t)
	if len(rec.Items) != items || rec.Instance != "instance-1" || rec.Installation != "root" {
		t.Fatalf("last record has %d items, instance %q, installation %q", len(rec.Items), rec.Instance, rec.Installation)
	}
	ann := store.stored.GetAnnotations()
	if ann[GroupKindsAnnotation] != "ConfigMap" || ann[NamespacesAnnotation] != "other" {
		t.Errorf("annotations %v, want the members' group kinds and other namespaces", ann)
	}
}

// A parent that a newer instance owns is never written or deleted by an
// older one (the deposed instance of create_before_destroy).
func TestParent_NewerInstanceKeepsIt(t *testing.T) {
	store := &slowSecrets{}
	newer := newParentIn(store, "ns", "root", "instance-2")
	if err := newer.open(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	newer.put(RecordedItem{ID: "root/a", Name: "a", Type: "t", ProviderStatus: json.RawMessage(`{}`)})
	if err := newer.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	writes := store.writes.Load()
	older := newParentIn(store, "ns", "root", "instance-1")
	if err := older.open(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	older.remove("root/a")
	if err := older.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if store.writes.Load() != writes || len(store.record(t).Items) != 1 {
		t.Fatalf("the older instance changed the newer one's inventory")
	}
}

// A destroy does not rewrite the record for every item it deleted: a
// record that still lists a deleted item loses nothing. Removals are
// written once, at close, or with the next recorded item.
func TestParent_RemovalsAreWrittenAtClose(t *testing.T) {
	store := &slowSecrets{}
	p := newParentIn(store, "ns", "root", "instance-1")
	if err := p.open(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	for i := range 10 {
		p.put(RecordedItem{ID: fmt.Sprintf("root/item-%d", i), Name: fmt.Sprintf("item-%d", i), Type: "t", Config: json.RawMessage(`{"a": 1}`)})
	}
	if err := p.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	destroy := newParentIn(store, "ns", "root", "instance-1")
	if err := destroy.open(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	writes := store.writes.Load()
	for i := range 9 {
		destroy.remove(fmt.Sprintf("root/item-%d", i))
	}
	time.Sleep(20 * time.Millisecond) // a write started by a removal would have begun
	if got := store.writes.Load(); got != writes {
		t.Fatalf("%d writes while removing items, want none before close", got-writes)
	}
	if err := destroy.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := store.writes.Load() - writes; got != 1 {
		t.Fatalf("%d writes at close, want 1", got)
	}
	rec := store.record(t)
	if len(rec.Items) != 1 || rec.Items[0].ID != "root/item-9" || string(rec.Items[0].Config) != `{"a":1}` {
		t.Fatalf("record after close: %+v, want item-9 alone", rec.Items)
	}
	last := newParentIn(store, "ns", "root", "instance-1")
	if err := last.open(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	last.remove("root/item-9")
	if err := last.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if store.stored != nil || store.deletes != 1 {
		t.Fatal("the parent of an installation whose last item was removed still exists")
	}
}

// A parent that was never read (its cluster's first Delete failed before
// the inventory was opened) knows no items: close must neither write nor
// delete it.
func TestParent_UnopenedIsLeftAlone(t *testing.T) {
	store := &slowSecrets{}
	p := newParentIn(store, "ns", "root", "instance-1")
	if err := p.open(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	p.put(RecordedItem{ID: "root/a", Name: "a", Type: "t"})
	if err := p.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	writes := store.writes.Load()
	unopened := newParentIn(store, "ns", "root", "instance-1")
	if err := unopened.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if store.writes.Load() != writes || store.deletes != 0 || len(store.record(t).Items) != 1 {
		t.Fatal("closing a parent that was never read changed the inventory")
	}
}

func TestApplySetID(t *testing.T) {
	// What kubectl computes for Secret "landscaper-inventory-x" in
	// "default", base64url(sha256("landscaper-inventory-x.default.Secret.")),
	// here worked out with openssl.
	if got, want := ApplySetID("landscaper-inventory-x", "default"), "applyset-36yqeKOqVgjibAnG_Fcmx7dpMeX6nII4sJdszHQX_gY-v1"; got != want {
		t.Fatalf("ApplySetID = %s, want %s", got, want)
	}
}
