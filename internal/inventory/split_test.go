package inventory

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// configMapItem is item i of an installation of ConfigMap items as the
// manifest deployer records it (tools/bench's scale workload), its status
// ending in rev.
func configMapItem(i int, rev string) RecordedItem {
	name := fmt.Sprintf("cm-%d", i)
	return recordItem(deployer.Item{ID: "root/" + name, Name: name, Type: "landscaper.gardener.cloud/kubernetes-manifest",
		Config: json.RawMessage(fmt.Sprintf(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration","updateStrategy":"update","manifests":[{"policy":"manage","manifest":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"%s","namespace":"bench"},"data":{"value":"%d"}}}]}`, name, i))},
		deployer.Result{
			ProviderStatus: json.RawMessage(fmt.Sprintf(`{"managedResources":[{"policy":"manage","resource":{"apiVersion":"v1","kind":"ConfigMap","name":"%s","namespace":"bench","uid":"6f1c2a8e-0000-4000-8000-%012d","rev":%q}}]}`, name, i, rev)),
			Objects:        []deployer.ObjectRef{{APIVersion: "v1", Kind: "ConfigMap", Namespace: "bench", Name: name}},
		})
}

// setItems makes the items of p items 0..n-1 of rev, as a job that
// recorded them would hold them.
func setItems(t testing.TB, p *parent, n int, rev func(i int) string) content {
	t.Helper()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.items = make(map[string]entry, n)
	for i := range n {
		e, err := newEntry(configMapItem(i, rev(i)), nil)
		if err != nil {
			t.Fatal(err)
		}
		p.items[e.id] = e
	}
	return p.contentLocked()
}

// same is rev for every item.
func same(rev string) func(int) string { return func(int) string { return rev } }

// openedSplit is a parent of store, opened by a job that writes.
func openedSplit(t testing.TB, store *secretStore, key []byte) *parent {
	t.Helper()
	p := newParentIn(store, "ns", "root", "instance-1")
	p.key = key
	if err := p.open(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	return p
}

// readBack reads the record of store's parent as a job does, failing
// the test when it is ignored.
func readBack(t *testing.T, store *secretStore) parentRead {
	t.Helper()
	f, err := fetch(context.Background(), store, "ns", ParentName("root"), "root")
	if err != nil || f.ignored != "" {
		t.Fatalf("fetch = %v, ignored %q", err, f.ignored)
	}
	return f
}

// secretData is the decoded data key of the stored Secret name.
func secretData(t *testing.T, store *secretStore, name, key string) []byte {
	t.Helper()
	s, _, _ := unstructured.NestedString(store.objs[name].Object, "data", key)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// One installation's record of 100,000 items is written over several
// Secrets, each far below what a Secret holds, and reads back whole and
// signed: the head's signature verifies, and every item is there.
func TestSplitRecord_100000Items(t *testing.T) {
	if testing.Short() {
		t.Skip("encodes 100,000 items")
	}
	store := newSecretStore()
	key := testKey(3)
	p := openedSplit(t, store, key)
	const n = 100_000
	if err := p.write(context.Background(), setItems(t, p, n, same(""))); err != nil {
		t.Fatal(err)
	}
	names := store.names()
	if len(names) < 3 {
		t.Fatalf("%d Secrets, want the record split", len(names))
	}
	largest := 0
	for _, name := range names {
		key := partKey
		if name == p.name {
			key = recordKey
		}
		largest = max(largest, len(secretData(t, store, name, key)))
	}
	if largest > 1<<20 {
		t.Fatalf("a Secret holds %d bytes, more than the API server takes", largest)
	}
	f := readBack(t, store)
	if len(f.rec.Items) != n || f.rec.Version != splitRecordVersion || len(f.rec.Parts) != len(names)-1 {
		t.Fatalf("read %d items of version %d in %d parts; %d Secrets", len(f.rec.Items), f.rec.Version, len(f.rec.Parts), len(names))
	}
	if err := f.verify(key, "", "ns", p.name); err != nil {
		t.Fatalf("the split record does not verify: %v", err)
	}
	for _, i := range []int{0, 1, n / 2, n - 1} {
		want := configMapItem(i, "")
		if !slices.ContainsFunc(f.rec.Items, func(it RecordedItem) bool {
			return it.ID == want.ID && string(it.ProviderStatus) == string(want.ProviderStatus)
		}) {
			t.Errorf("item %s is not read back as written", want.ID)
		}
	}
	t.Logf("100,000 items: %d parts, the largest Secret %d bytes of data", len(names)-1, largest)
}

// A one-item change of 10,000 items writes the one part that holds the
// item and the head; the other parts keep their names, and the part the
// head no longer names is deleted at close.
func TestSplitRecord_OneItemChangeWritesOnePart(t *testing.T) {
	store := newSecretStore()
	p := openedSplit(t, store, nil)
	const n = 10_000
	if err := p.write(context.Background(), setItems(t, p, n, same("1"))); err != nil {
		t.Fatal(err)
	}
	before := store.names()
	applies := store.applies
	if err := p.write(context.Background(), setItems(t, p, n, func(i int) string { return map[bool]string{true: "2", false: "1"}[i == 4711] })); err != nil {
		t.Fatal(err)
	}
	if got := store.applies - applies; got != 2 {
		t.Errorf("a one-item change made %d writes, want 2 (its part and the head)", got)
	}
	if err := p.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	after := store.names()
	kept := 0
	for _, n := range before {
		if slices.Contains(after, n) {
			kept++
		}
	}
	if len(after) != len(before) || kept != len(before)-1 {
		t.Errorf("%d Secrets before, %d after, %d kept; want one part replaced", len(before), len(after), kept)
	}
	if got := readBack(t, store).rec.Items; len(got) != n || !strings.Contains(string(got[slices.IndexFunc(got, func(it RecordedItem) bool { return it.ID == "root/cm-4711" })].ProviderStatus), `"rev":"2"`) {
		t.Errorf("the change is not read back")
	}
}

// A write that fails after some of its parts leaves the previous record
// readable, whole; the next job reads it, writes its own and deletes what
// the failed write left behind.
func TestSplitRecord_FailedWriteLeavesThePreviousRecord(t *testing.T) {
	store := newSecretStore()
	p := openedSplit(t, store, testKey(4))
	const n = 10_000
	if err := p.write(context.Background(), setItems(t, p, n, same("1"))); err != nil {
		t.Fatal(err)
	}
	first := store.names()
	written := 0
	store.failApply = func(name string) error {
		if name == p.name || written == 3 {
			return errors.New("connection reset")
		}
		written++
		return nil
	}
	if err := p.write(context.Background(), setItems(t, p, n, same("2"))); err == nil {
		t.Fatal("the write did not fail")
	}
	if len(store.names()) <= len(first) {
		t.Fatalf("the failed write left no part behind (%d Secrets): the test does not test a write that failed half way", len(store.names()))
	}
	f := readBack(t, store)
	if len(f.rec.Items) != n || !strings.Contains(string(f.rec.Items[0].ProviderStatus), `"rev":"1"`) {
		t.Fatalf("after a failed write, read %d items (%s), want the previous record", len(f.rec.Items), f.rec.Items[0].ProviderStatus)
	}
	if err := f.verify(testKey(4), "", "ns", p.name); err != nil {
		t.Fatalf("the previous record no longer verifies: %v", err)
	}
	// The next job.
	store.failApply = nil
	next := openedSplit(t, store, testKey(4))
	if err := next.write(context.Background(), setItems(t, next, n, same("3"))); err != nil {
		t.Fatal(err)
	}
	if err := next.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	f = readBack(t, store)
	if !strings.Contains(string(f.rec.Items[0].ProviderStatus), `"rev":"3"`) {
		t.Fatalf("the next job's record is not read back")
	}
	if got := len(store.names()); got != len(f.rec.Parts)+1 {
		t.Errorf("%d Secrets after the next job, want its %d parts and the parent: what the failed write left is deleted", got, len(f.rec.Parts))
	}
}

// A part that is missing, holds other content or is not a part makes
// the record unreadable: it is ignored, as any record that cannot be read.
// A head that names other parts does not verify.
func TestSplitRecord_MissingOrForeignPart(t *testing.T) {
	write := func(t *testing.T) (*secretStore, Record) {
		store := newSecretStore()
		p := openedSplit(t, store, testKey(5))
		if err := p.write(context.Background(), setItems(t, p, 5000, same("1"))); err != nil {
			t.Fatal(err)
		}
		return store, readBack(t, store).rec
	}
	for _, tc := range []struct {
		name, why string
		edit      func(s *secretStore, rec Record)
	}{
		{"missing", "it is missing", func(s *secretStore, rec Record) { delete(s.objs, rec.Parts[1].Name) }},
		{"other content", "its content is not the one", func(s *secretStore, rec Record) {
			_ = unstructured.SetNestedField(s.objs[rec.Parts[1].Name].Object, b64(gzipBytes([]byte(`{"id":"root/x","name":"x","type":"t"}`+"\n"))), "data", partKey)
		}},
		{"not a part", "it is missing", func(s *secretStore, rec Record) {
			_ = unstructured.SetNestedField(s.objs[rec.Parts[0].Name].Object, "Opaque", "type")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, rec := write(t)
			tc.edit(store, rec)
			f, err := fetch(context.Background(), store, "ns", ParentName("root"), "root")
			if err != nil || !strings.Contains(f.ignored, tc.why) || len(f.rec.Items) != 0 {
				t.Fatalf("fetch = %v, ignored %q, %d items; want the record ignored because %s", err, f.ignored, len(f.rec.Items), tc.why)
			}
		})
	}
	t.Run("head names other parts", func(t *testing.T) {
		store, rec := write(t)
		// Someone who may write Secrets plants a part of their own and
		// names it in the head, keeping the signature.
		planted := []byte(`{"id":"root/x","name":"x","type":"t"}` + "\n")
		other := part{raw: planted}
		other.ref = PartRef{Digest: sha256Hex(planted), Size: len(planted)}
		other.ref.Name = partName(ParentName("root"), other.ref.Digest)
		store.objs[other.ref.Name] = other.object(ParentName("root"), "ns")
		rec.Parts, rec.Items = append(rec.Parts, other.ref), nil
		head, _ := json.Marshal(rec)
		_ = unstructured.SetNestedField(store.objs[ParentName("root")].Object, b64(gzipBytes(head)), "data", recordKey)
		f := readBack(t, store)
		if err := f.verify(testKey(5), "", "ns", ParentName("root")); !errors.Is(err, ErrBadSignature) {
			t.Fatalf("verify = %v, want ErrBadSignature", err)
		}
	})
}

// A single-Secret record (version 1, as earlier providers wrote every
// record) reads, and a job that grows it past one Secret rewrites it
// split; one that shrinks it again writes one Secret and deletes the
// parts; a destroy deletes the parts and then the parent.
func TestSplitRecord_FromAndToOneSecret(t *testing.T) {
	store := newSecretStore()
	p := openedSplit(t, store, nil)
	if err := p.write(context.Background(), setItems(t, p, 100, same("1"))); err != nil {
		t.Fatal(err)
	}
	if f := readBack(t, store); f.rec.Version != recordVersion || len(f.rec.Items) != 100 || len(store.names()) != 1 {
		t.Fatalf("100 items: version %d, %d items, %d Secrets; want one Secret of version 1", f.rec.Version, len(f.rec.Items), len(store.names()))
	}
	grow := openedSplit(t, store, nil)
	if got := len(grow.items); got != 100 {
		t.Fatalf("the single-Secret record read %d items", got)
	}
	if err := grow.write(context.Background(), setItems(t, grow, 10_000, same("1"))); err != nil {
		t.Fatal(err)
	}
	if f := readBack(t, store); f.rec.Version != splitRecordVersion || len(f.rec.Items) != 10_000 {
		t.Fatalf("10,000 items: version %d, %d items; want it split", f.rec.Version, len(f.rec.Items))
	}
	shrink := openedSplit(t, store, nil)
	if err := shrink.write(context.Background(), setItems(t, shrink, 10, same("1"))); err != nil {
		t.Fatal(err)
	}
	if err := shrink.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if f := readBack(t, store); f.rec.Version != recordVersion || len(store.names()) != 1 {
		t.Fatalf("10 items: version %d in %d Secrets, want one Secret again", f.rec.Version, len(store.names()))
	}
	destroy := openedSplit(t, store, nil)
	if err := destroy.write(context.Background(), setItems(t, destroy, 10_000, same("1"))); err != nil {
		t.Fatal(err)
	}
	for _, it := range readBack(t, store).rec.Items {
		destroy.remove(it.ID)
	}
	if err := destroy.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if left := store.names(); len(left) != 0 {
		t.Fatalf("a destroy left %v", left)
	}
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// What a split record keeps for an import (Recorder.Keep) beyond what its
// head holds goes to parts of its own, which the head's signature covers
// as well: read back whole, and unchanged it is not written again.
func TestSplitRecord_KeptInParts(t *testing.T) {
	store := newSecretStore()
	p := openedSplit(t, store, testKey(6))
	c := setItems(t, p, 3000, same("1"))
	kept := []byte(`{"snapshot":"` + strings.Repeat("0123456789abcdef", 150_000) + `"}`) // 2.4 MB
	c.kept = kept
	if err := p.write(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	f := readBack(t, store)
	if len(f.rec.KeptParts) < 3 || string(f.rec.Kept) != string(kept) || len(f.rec.Items) != 3000 {
		t.Fatalf("kept in %d parts, read back %d bytes (want %d) and %d items", len(f.rec.KeptParts), len(f.rec.Kept), len(kept), len(f.rec.Items))
	}
	if err := f.verify(testKey(6), "", "ns", p.name); err != nil {
		t.Fatal(err)
	}
	applies := store.applies
	if err := p.write(context.Background(), c); err != nil {
		t.Fatal(err)
	}
	if got := store.applies - applies; got != 1 {
		t.Errorf("an unchanged record wrote %d Secrets, want the head alone", got)
	}
	delete(store.objs, f.rec.KeptParts[1].Name)
	if f, err := fetch(context.Background(), store, "ns", p.name, "root"); err != nil || !strings.Contains(f.ignored, "it is missing") {
		t.Fatalf("a missing part of what is kept: fetch = %v, ignored %q", err, f.ignored)
	}
}

// A change in one place of what is kept rewrites the parts around it
// only: the cuts follow the bytes, not their offsets.
func TestKeptParts_ChangeStaysLocal(t *testing.T) {
	var b strings.Builder
	for i := range 200_000 {
		fmt.Fprintf(&b, `{"item":%d,"job":"%x"},`, i, sha256.Sum256([]byte(fmt.Sprint(i))))
	}
	before := []byte(b.String())
	after := append([]byte(`{"inserted":true},`), before...) // everything moves
	after[len(after)/2] = 'X'
	names := func(kept []byte) map[string]bool {
		out := map[string]bool{}
		for _, pt := range keptParts("p", kept, nil, partCache{}) {
			if pt.ref.Size > maxPartSize {
				t.Fatalf("a part of %d bytes", pt.ref.Size)
			}
			out[pt.ref.Name] = true
		}
		return out
	}
	was, is := names(before), names(after)
	changed := 0
	for n := range is {
		if !was[n] {
			changed++
		}
	}
	if len(was) < 10 || changed > 4 {
		t.Fatalf("%d parts before; a change at the start and one in the middle changed %d of %d parts, want at most 4", len(was), changed, len(is))
	}
	t.Logf("%d parts; two changes rewrote %d", len(is), changed)
}
