package inventory

import (
	"context"
	"encoding/json"
	"testing"
)

// What a job keeps (Recorder.Keep) is written at close with the items,
// read back when the parent is opened again, and survives later writes
// that keep nothing new; a parent of a newer instance keeps its own.
func TestRecorder_KeepIsWrittenAtClose(t *testing.T) {
	store := &slowSecrets{}
	r := NewRecorder(nil, "root", "instance-1")
	p := newParentIn(store, "ns", "root", "instance-1")
	r.clusters[nil] = p
	if err := p.open(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	p.put(RecordedItem{ID: "root/a", Name: "a", Type: "t", ProviderStatus: json.RawMessage(`{}`)})
	r.Keep(json.RawMessage(`{"phase":"Succeeded"}`))
	if err := r.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := string(store.record(t).Kept); got != `{"phase":"Succeeded"}` {
		t.Fatalf("kept after close = %q", got)
	}

	// The next job records an item and keeps nothing new: the record
	// still holds what was kept.
	next := newParentIn(store, "ns", "root", "instance-1")
	if err := next.open(context.Background(), true); err != nil {
		t.Fatal(err)
	}
	next.put(RecordedItem{ID: "root/b", Name: "b", Type: "t", ProviderStatus: json.RawMessage(`{}`)})
	if err := next.close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if rec := store.record(t); string(rec.Kept) != `{"phase":"Succeeded"}` || len(rec.Items) != 2 {
		t.Fatalf("record after a job that kept nothing: kept %q, %d items", rec.Kept, len(rec.Items))
	}

	// An older instance keeps nothing in a newer one's parent.
	older := NewRecorder(nil, "root", "instance-0")
	op := newParentIn(store, "ns", "root", "instance-0")
	older.clusters[nil] = op
	if err := op.open(context.Background(), false); err != nil {
		t.Fatal(err)
	}
	writes := store.writes.Load()
	older.Keep(json.RawMessage(`{"phase":"Failed"}`))
	if err := older.Close(context.Background()); err != nil {
		t.Fatal(err)
	}
	if store.writes.Load() != writes || string(store.record(t).Kept) != `{"phase":"Succeeded"}` {
		t.Fatal("an older instance rewrote what a newer one keeps")
	}
}
