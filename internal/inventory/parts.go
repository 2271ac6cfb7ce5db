package inventory

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"slices"
	"strings"

	"github.com/klauspost/compress/gzip"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/dynamic"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
)

// A record larger than one Secret holds is split (version 2 of the
// record). The parent Secret keeps the record's head — version,
// installation, instance, the last reconcile, what is kept for an import
// up to maxInlineKept (beyond, it is in parts of its own: KeptParts) —
// and the list of its parts, each named with the SHA-256 of its content;
// the items are in part Secrets, PartOfLabel naming the parent, each
// holding a run of the items (sorted by ID, one JSON object a line,
// gzipped; an item larger than a part is cut over consecutive parts).
// The head's signature (sign.go) covers the head and through the digests
// every part: a part that is missing, of another content or not a part
// makes the record unreadable, and it is ignored as any other record that
// cannot be read (fetch).
//
// A write changes the parent last but one step: it writes the parts the
// head does not share with the one on the cluster, then the head, then
// deletes the parts no head refers to any more. A write that fails half
// way leaves the previous head and all its parts in place: the record on
// the cluster is always one complete generation, and the next write of
// the installation deletes what the failed one left behind.
//
// Where a part ends depends on the items in it only (cutAfter), so a
// change of one item rewrites the one part that holds it — its neighbours
// keep their content, their names and their Secrets — and an insertion
// or removal moves at most the cuts around it.
//
// A record of at most maxPartSize bytes keeps the single-Secret form of
// version 1, which every earlier provider reads.

// PartOfLabel names, on a part Secret, the parent Secret whose record it
// belongs to.
const PartOfLabel = "landscaper.gardener.cloud/inventory-part-of"

const (
	partType           = corev1.SecretType("landscaper.gardener.cloud/inventory-part")
	partKey            = "part"
	splitRecordVersion = 2
	// partTarget is the size a part has on average (uncompressed), and
	// maxPartSize the most it may hold: gzip of incompressible data stays
	// below the 1 MiB a Secret's data may hold, and the request below the
	// API server's 3 MiB and etcd's 1.5 MiB.
	partTarget  = 256 << 10
	maxPartSize = 768 << 10
	// maxParts and maxSplitRecordSize bound a split record, read and
	// written alike: 256 MiB are about 400,000 items of a ConfigMap each.
	maxParts           = 2048
	maxSplitRecordSize = 256 << 20
	// partsPage is how many parts one list of them returns at most.
	partsPage = 16
)

// PartRef is one part of a split record as its head lists it.
type PartRef struct {
	// Name is the part Secret's name: the parent's, "-" and the first 20
	// hex digits of Digest.
	Name string `json:"name"`
	// Digest is the hex SHA-256 of the part's content uncompressed, and
	// Size its length.
	Digest string `json:"sha256"`
	Size   int    `json:"size"`
}

// part is one part of a record about to be written: its segments, and
// their bytes once they were needed (content).
type part struct {
	ref  PartRef
	segs []segment
	raw  []byte
}

// segment is the bytes [from, to) of an item's line — its JSON and "\n" —
// in a part: a whole line, or a piece of one larger than a part.
type segment struct {
	raw      []byte
	from, to int
}

// content is the part's bytes.
func (pt *part) content() []byte {
	if pt.raw == nil {
		pt.raw = make([]byte, 0, pt.ref.Size)
		for _, sg := range pt.segs {
			pt.raw = appendLine(pt.raw, sg)
		}
	}
	return pt.raw
}

// appendLine appends the bytes of sg to b.
func appendLine(b []byte, sg segment) []byte {
	end := min(sg.to, len(sg.raw))
	if sg.from < end {
		b = append(b, sg.raw[sg.from:end]...)
	}
	if sg.to > len(sg.raw) {
		b = append(b, '\n')
	}
	return b
}

// partName is the name of the part of parent of content digest (hex).
func partName(parent, digest string) string { return parent + "-" + digest[:20] }

// cutAfter says whether a part ends after the item id of size bytes: with
// the chance size/partTarget, decided by id alone (FNV-1a, mixed), so parts are
// partTarget bytes on average and the same items end the same parts in
// every write.
func cutAfter(id string, size int) bool {
	h := fnv.New64a()
	_, _ = h.Write([]byte(id)) // never fails
	// FNV's low bits follow the IDs' last bytes too closely; a finalizer
	// (MurmurHash3's) spreads them.
	z := h.Sum64()
	z = (z ^ z>>33) * 0xff51afd7ed558ccd
	z = (z ^ z>>33) * 0xc4ceb9fe1a85ec53
	z ^= z >> 33
	return z%partTarget < uint64(size)
}

// partCache is what the last split of a parent made of its parts, by
// the first bytes of each: a part of the same segments of the same
// entries (an entry's bytes never change: a changed item is a new entry)
// has the same content, which is neither copied nor hashed again.
type partCache map[segKey]part

// segKey names a segment by its entry's bytes and where it starts in
// them.
type segKey struct {
	first *byte
	from  int
}

func keyOf(sg segment) segKey { return segKey{first: firstByte(sg.raw), from: sg.from} }

// firstByte is the address of b's bytes, nil for none: entries are told
// apart by it.
func firstByte(b []byte) *byte {
	if len(b) == 0 {
		return nil
	}
	return &b[0]
}

// sameSegments reports whether a and b are the same bytes of the same
// entries.
func sameSegments(a, b []segment) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if firstByte(a[i].raw) == nil || firstByte(a[i].raw) != firstByte(b[i].raw) || len(a[i].raw) != len(b[i].raw) ||
			a[i].from != b[i].from || a[i].to != b[i].to {
			return false
		}
	}
	return true
}

// split cuts the items (sorted by ID) of a
// split record into parts of parent name; cache is what the last split
// made, and split returns what this one made.
func (c content) split(name string, cache partCache) ([]part, partCache) {
	var out []part
	next := make(partCache, len(cache))
	var segs []segment
	size := 0
	emit := func() {
		if old, ok := cache[keyOf(segs[0])]; ok && sameSegments(old.segs, segs) {
			out = append(out, part{ref: old.ref, segs: old.segs})
		} else {
			pt := part{segs: segs, ref: PartRef{Size: size}}
			sum := sha256.Sum256(pt.content())
			pt.ref.Digest = hex.EncodeToString(sum[:])
			pt.ref.Name = partName(name, pt.ref.Digest)
			out = append(out, pt)
		}
		next[keyOf(segs[0])] = part{ref: out[len(out)-1].ref, segs: segs}
		segs, size = nil, 0
	}
	for _, e := range c.items {
		line := len(e.raw) + 1
		from := 0
		for size+line-from > maxPartSize { // cut an item larger than what remains of the part
			room := maxPartSize - size
			segs = append(segs, segment{raw: e.raw, from: from, to: from + room})
			from, size = from+room, maxPartSize
			emit()
		}
		segs = append(segs, segment{raw: e.raw, from: from, to: line})
		size += line - from
		if cutAfter(e.id, line) {
			emit()
		}
	}
	if len(segs) > 0 {
		emit()
	}
	return out, next
}

// layout is a record as it is written: the parent Secret and, when it is
// split, its parts.
type layout struct {
	parent *unstructured.Unstructured
	parts  []part
	cache  partCache
}

// itemsSize is the size of the items' JSON.
func (c content) itemsSize() int {
	size := 0
	for _, e := range c.items {
		size += len(e.raw) + 1
	}
	return size
}

// layout is the record of the parent name in namespace as it is
// written: one Secret when it fits (object), else a head and its parts.
// cache is what the last layout of the parent split (nil: none); the
// returned layout holds what this one did.
func (c content) layout(name, namespace string, cache partCache) (layout, error) {
	size := c.itemsSize() + len(c.kept)
	if size <= maxPartSize {
		u, err := c.object(name, namespace)
		return layout{parent: u}, err
	}
	if size > maxSplitRecordSize {
		return layout{}, fmt.Errorf("the record of %d deploy items is %d bytes uncompressed, more than the %d an inventory may hold; "+
			"split the installation, so that fewer items deploy to one cluster", len(c.items), size, maxSplitRecordSize)
	}
	if byID := func(a, b entry) int { return strings.Compare(a.id, b.id) }; !slices.IsSortedFunc(c.items, byID) { // contentLocked sorts
		slices.SortFunc(c.items, byID)
	}
	parts, next := c.split(name, cache)
	head := Record{Version: splitRecordVersion, Installation: c.installation, Instance: c.instance, Reconciled: c.reconciled}
	if len(c.kept) <= maxInlineKept {
		head.Kept = c.kept
	} else {
		kept := keptParts(name, c.kept, cache, next)
		for _, pt := range kept {
			head.KeptParts = append(head.KeptParts, pt.ref)
		}
		parts = append(parts, kept...)
	}
	if len(parts) > maxParts {
		return layout{}, fmt.Errorf("the record of %d deploy items needs %d parts, more than the %d an inventory may have; "+
			"split the installation, so that fewer items deploy to one cluster", len(c.items), len(parts), maxParts)
	}
	for _, pt := range parts[:len(parts)-len(head.KeptParts)] {
		head.Parts = append(head.Parts, pt.ref)
	}
	raw, err := json.Marshal(head)
	if err != nil {
		return layout{}, err
	}
	signature := ""
	if c.key != nil {
		signature = Sign(c.key, c.cluster, namespace, name, raw)
	}
	gks, nss := c.members(namespace)
	u := c.parentSecret(name, namespace, gzipBytes(raw), signature, gks, nss)
	return layout{parent: u, parts: parts, cache: next}, nil
}

// maxInlineKept is the most of what is kept for an import (Record.Kept)
// a split record's head holds itself; more goes to parts of its own.
const maxInlineKept = 64 << 10

// keptParts cuts what is kept for an import, kept, into parts of parent
// name where its bytes say (keptCut), so that a change in one place of it
// changes the parts around that place only; it reuses the parts cache
// holds and adds them to next.
func keptParts(name string, kept []byte, cache, next partCache) []part {
	var out []part
	for from := 0; from < len(kept); {
		sg := segment{raw: kept, from: from, to: from + keptCut(kept[from:])}
		pt := part{segs: []segment{sg}, ref: PartRef{Size: sg.to - sg.from}}
		if old, ok := cache[keyOf(sg)]; ok && sameSegments(old.segs, pt.segs) {
			pt.ref = old.ref
		} else {
			sum := sha256.Sum256(pt.content())
			pt.ref.Digest = hex.EncodeToString(sum[:])
			pt.ref.Name = partName(name, pt.ref.Digest)
		}
		next[keyOf(sg)] = part{ref: pt.ref, segs: pt.segs}
		out = append(out, pt)
		from = sg.to
	}
	return out
}

// Content-defined cuts of what is kept (a gear hash, as in FastCDC):
// after keptMin bytes a part ends where the hash of the bytes before has
// its low bits zero — about every keptMask+1 bytes — and at maxPartSize
// at most. The same bytes end a part wherever they are, so an insertion
// or change moves the cuts around it only.
const (
	keptMin  = 64 << 10
	keptMask = 1<<18 - 1
)

// gear holds a fixed pseudo-random number for every byte (splitmix64).
var gear = func() (g [256]uint64) {
	x := uint64(0x6c616e6473636170) // fixed: the cuts must not change between versions
	for i := range g {
		x += 0x9e3779b97f4a7c15
		z := x
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		g[i] = z ^ z>>31
	}
	return g
}()

// keptCut is the length of the part that starts at b.
func keptCut(b []byte) int {
	if len(b) <= keptMin {
		return len(b)
	}
	var h uint64
	for i := keptMin; i < len(b) && i < maxPartSize; i++ {
		h = h<<1 + gear[b[i]]
		if h&keptMask == 0 {
			return i + 1
		}
	}
	return min(len(b), maxPartSize)
}

// object is the part Secret of parent in namespace.
func (pt *part) object(parent, namespace string) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": pt.ref.Name, "namespace": namespace,
			"labels": map[string]any{PartOfLabel: parent}},
		"type": string(partType),
		"data": map[string]any{partKey: base64.StdEncoding.EncodeToString(gzipBytes(pt.content()))},
	}}
}

// gzipBytes is b gzipped at the fastest level (gzipWriters).
func gzipBytes(b []byte) []byte {
	var buf bytes.Buffer
	zw, ok := gzipWriters.Get().(*gzip.Writer)
	if !ok { // the pool holds nothing else
		zw, _ = gzip.NewWriterLevel(nil, gzip.BestSpeed)
	}
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	_, _ = zw.Write(b)
	_ = zw.Close() // writes to a buffer: never fails
	return buf.Bytes()
}

// partsRead is what reading the parts of a split record gave: the items,
// what is kept for an import, and which part Secrets exist, referred to
// by the head or not.
type partsRead struct {
	items    []RecordedItem
	kept     json.RawMessage
	existing map[string]bool
}

// errUnreadable is a split record whose parts do not make its items.
var errUnreadable = errors.New("its parts do not make a record")

// listParts returns the part Secrets of parent name by name.
func listParts(ctx context.Context, client dynamic.ResourceInterface, name string) (map[string]*unstructured.Unstructured, error) {
	out := map[string]*unstructured.Unstructured{}
	opts := metav1.ListOptions{LabelSelector: PartOfLabel + "=" + name, Limit: partsPage}
	for {
		l, err := client.List(ctx, opts)
		if err != nil {
			return nil, err
		}
		for i := range l.Items {
			// Only what this package writes: a Secret that merely carries
			// the label is neither read nor ever deleted.
			u := &l.Items[i]
			if t, _, _ := unstructured.NestedString(u.Object, "type"); t == string(partType) && strings.HasPrefix(u.GetName(), name+"-") {
				out[u.GetName()] = u
			}
		}
		if opts.Continue = l.GetContinue(); opts.Continue == "" || len(out) > maxParts*2 {
			return out, nil
		}
	}
}

// readParts reads the items of the split record rec of parent name from
// its parts. A part that is missing, not a part or of other content is
// an errUnreadable; an error of the API server is returned as it is.
func readParts(ctx context.Context, client dynamic.ResourceInterface, name string, rec Record) (partsRead, error) {
	refs := append(slices.Clip(rec.Parts), rec.KeptParts...)
	if len(refs) > maxParts {
		return partsRead{}, fmt.Errorf("%w: %d parts, more than %d", errUnreadable, len(refs), maxParts)
	}
	if len(rec.KeptParts) > 0 && len(rec.Kept) > 0 {
		return partsRead{}, fmt.Errorf("%w: its head holds what is kept and names parts of it", errUnreadable)
	}
	total := 0
	for _, ref := range refs {
		if ref.Size <= 0 || ref.Size > maxPartSize || len(ref.Digest) != sha256.Size*2 || ref.Name != partName(name, ref.Digest) {
			return partsRead{}, fmt.Errorf("%w: part %q is not one this provider writes", errUnreadable, ref.Name)
		}
		total += ref.Size
	}
	if total > maxSplitRecordSize {
		return partsRead{}, fmt.Errorf("%w: %d bytes, more than %d", errUnreadable, total, maxSplitRecordSize)
	}
	listed, err := listParts(ctx, client, name)
	if err != nil {
		return partsRead{}, fmt.Errorf("reading the parts of the installation inventory %s: %w", name, err)
	}
	out := partsRead{existing: make(map[string]bool, len(listed))}
	for n := range listed {
		out.existing[n] = true
	}
	read := func(refs []PartRef) ([]byte, error) {
		var body []byte
		for _, ref := range refs {
			raw, err := partContent(listed[ref.Name], ref)
			if err != nil {
				return nil, fmt.Errorf("%w: part %s: %w", errUnreadable, ref.Name, err)
			}
			body = append(body, raw...)
		}
		return body, nil
	}
	body, err := read(rec.Parts)
	if err != nil {
		return out, err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	for {
		var it RecordedItem
		if err := dec.Decode(&it); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			return out, fmt.Errorf("%w: %w", errUnreadable, err)
		}
		out.items = append(out.items, it)
	}
	if len(rec.KeptParts) > 0 {
		kept, err := read(rec.KeptParts)
		if err != nil {
			return out, err
		}
		if !json.Valid(kept) {
			return out, fmt.Errorf("%w: what it keeps for an import is not JSON", errUnreadable)
		}
		out.kept = kept
	}
	return out, nil
}

// partContent is the content of the part Secret u that ref names.
func partContent(u *unstructured.Unstructured, ref PartRef) ([]byte, error) {
	if u == nil {
		return nil, errors.New("it is missing")
	}
	enc, _, _ := unstructured.NestedString(u.Object, "data", partKey)
	gz, err := base64.StdEncoding.DecodeString(enc)
	if err != nil {
		return nil, fmt.Errorf("its data is not base64: %w", err)
	}
	raw, err := compress.Gunzip(gz, int64(ref.Size))
	if err != nil {
		return nil, err
	}
	if sum := sha256.Sum256(raw); hex.EncodeToString(sum[:]) != ref.Digest {
		return nil, errors.New("its content is not the one the record's head names")
	}
	return raw, nil
}
