package instance

import (
	"crypto/sha256"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/engine/snapshot"
)

// Decode reads the snapshot in private state (nil for none); the one the
// refresh of the same plan decoded from these bytes is used when it is
// held.
func Decode(b []byte) (*engine.Snapshot, error) {
	if len(b) == 0 {
		return nil, nil
	}
	if s := refreshed.take(b); s != nil {
		return s, nil
	}
	decodes.Add(1)
	s, err := snapshot.Unmarshal(b)
	if err != nil {
		return nil, fmt.Errorf("reading the engine snapshot from private state: %w", err)
	}
	return s, nil
}

// decodes counts the snapshots Decode decoded from their bytes, rather
// than took from the refresh before it.
var decodes atomic.Int64

// Decodes is how many snapshots this process has decoded from private
// state so far: a refresh and the plan after it cost one per
// installation (the largest single cost of the refresh after the drift
// check's reads), which the provider's tests hold it to.
func Decodes() int64 { return decodes.Load() }

// A plan refreshes (Runner.Drift) and then plans each installation in the
// same provider process, and both start from the private snapshot: the
// plan from the bytes the refresh left there. refreshed hands the
// snapshot the refresh decoded (and perhaps marked) to the plan that
// follows, so a plan decodes each snapshot once.
//
// Safe by construction: an entry is found only by the SHA-256 of the very
// bytes it was decoded from, so a resource can only get what decoding its
// own private state would give; the caller that takes an entry removes
// it and owns it alone (each entry is a copy nobody else holds); entries
// are few and small in total, the oldest dropped first, and an entry
// nobody takes (a refresh-only run) is dropped in time too.
var refreshed = snapshotCache{maxEntries: 16, maxBytes: 32 << 20}

type snapshotCache struct {
	maxEntries, maxBytes int

	mu      sync.Mutex
	entries map[[sha256.Size]byte]cachedSnapshot
	order   [][sha256.Size]byte // the keys held, oldest first
	bytes   int                 // the encoded size of the entries held
}

type cachedSnapshot struct {
	snap *engine.Snapshot
	size int
}

// put remembers s as the decoding of b; s must not be used by the caller
// afterwards. A snapshot larger than the whole budget is not kept.
func (c *snapshotCache) put(b []byte, s *engine.Snapshot) {
	if s == nil || len(b) > c.maxBytes {
		return
	}
	key := sha256.Sum256(b)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[[sha256.Size]byte]cachedSnapshot{}
	}
	if old, ok := c.entries[key]; ok {
		c.bytes -= old.size
	} else {
		c.order = append(c.order, key)
	}
	c.entries[key] = cachedSnapshot{snap: s, size: len(b)}
	c.bytes += len(b)
	for len(c.entries) > c.maxEntries || c.bytes > c.maxBytes {
		oldest := c.order[0]
		c.order = c.order[1:]
		c.bytes -= c.entries[oldest].size
		delete(c.entries, oldest)
	}
}

// take returns and forgets the snapshot decoded from b; nil when none is
// held.
func (c *snapshotCache) take(b []byte) *engine.Snapshot {
	key := sha256.Sum256(b)
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.entries[key]
	if !ok {
		return nil
	}
	delete(c.entries, key)
	c.bytes -= e.size
	c.order = slices.DeleteFunc(c.order, func(k [sha256.Size]byte) bool { return k == key })
	return e.snap
}
