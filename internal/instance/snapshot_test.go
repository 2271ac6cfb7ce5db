package instance

import (
	"fmt"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

func cacheSnap(name string) *engine.Snapshot {
	return &engine.Snapshot{Version: snapshot.Version, Root: &snapshot.Installation{Path: name, Name: name}}
}

func TestSnapshotCache_TakenOnceByTheSameBytes(t *testing.T) {
	// a snapshot is handed out only for the bytes it was decoded from, and only once
	c := snapshotCache{maxEntries: 4, maxBytes: 1 << 20}
	s := cacheSnap("a")
	c.put([]byte(`{"a":1}`), s)
	if got := c.take([]byte(`{"a":2}`)); got != nil {
		t.Fatal("other bytes got the snapshot")
	}
	if got := c.take([]byte(`{"a":1}`)); got != s {
		t.Fatalf("got %v", got)
	}
	if got := c.take([]byte(`{"a":1}`)); got != nil {
		t.Fatal("taken twice")
	}
	if len(c.entries) != 0 || len(c.order) != 0 || c.bytes != 0 {
		t.Errorf("left %d entries, %d keys, %d bytes", len(c.entries), len(c.order), c.bytes)
	}
}

func TestSnapshotCache_Bounded(t *testing.T) {
	// the oldest entries go first when there are too many or they are too large; one larger than the budget is not kept
	c := snapshotCache{maxEntries: 3, maxBytes: 100}
	key := func(i int) []byte { return []byte(fmt.Sprintf("%020d", i)) }
	for i := range 5 {
		c.put(key(i), cacheSnap(fmt.Sprint(i)))
	}
	if len(c.entries) != 3 || c.take(key(0)) != nil || c.take(key(1)) != nil || c.take(key(4)) == nil {
		t.Fatalf("count bound: %d entries", len(c.entries))
	}
	c.put(make([]byte, 90), cacheSnap("big")) // 2 x 20 + 90 > 100: both older ones go
	if len(c.entries) != 1 || c.bytes != 90 || c.take(key(2)) != nil {
		t.Fatalf("size bound: %d entries, %d bytes", len(c.entries), c.bytes)
	}
	c.put(make([]byte, 101), cacheSnap("huge"))
	if c.take(make([]byte, 101)) != nil {
		t.Error("a snapshot over the budget was kept")
	}
	for range 100 { // put and take in turns: the keys held do not pile up
		c.put(key(7), cacheSnap("x"))
		c.take(key(7))
	}
	if len(c.order) != len(c.entries) {
		t.Errorf("%d keys for %d entries", len(c.order), len(c.entries))
	}
}
