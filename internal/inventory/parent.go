package inventory

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"hash"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/klauspost/compress/gzip"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/compress"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
)

// ApplySet labels and annotations (KEP 3659), as kubectl reads them.
const (
	IDLabel              = "applyset.kubernetes.io/id"
	ToolingAnnotation    = "applyset.kubernetes.io/tooling"
	GroupKindsAnnotation = "applyset.kubernetes.io/contains-group-kinds"
	NamespacesAnnotation = "applyset.kubernetes.io/additional-namespaces"
	// Tooling names this provider as the tool that manages the set;
	// kubectl refuses to prune sets of another tool.
	Tooling = "landscaper-terraform/v1"
)

// InstallationAnnotation names the root installation a parent belongs to.
const InstallationAnnotation = "landscaper.gardener.cloud/installation"

// secretType marks the parent Secrets; recordKey holds the record.
const (
	secretType = corev1.SecretType("landscaper.gardener.cloud/inventory")
	recordKey  = "record"
)

// ParentName is the name of the parent Secret of root installation root:
// fixed per installation, so import and a lost state find it again.
func ParentName(root string) string {
	sum := sha256.Sum256([]byte(root))
	return "landscaper-inventory-" + hex.EncodeToString(sum[:])[:20]
}

// ApplySetID is the ApplySet ID of a parent Secret as kubectl computes it:
// "applyset-" + base64url(sha256("<name>.<namespace>.<kind>.<group>")) + "-v1".
func ApplySetID(name, namespace string) string {
	sum := sha256.Sum256([]byte(strings.Join([]string{name, namespace, "Secret", ""}, ".")))
	return "applyset-" + base64.RawURLEncoding.EncodeToString(sum[:]) + "-v1"
}

// Record is what a parent holds: the items deployed to its cluster, and
// what the caller keeps with them for an import (Recorder.Keep).
type Record struct {
	Version      int    `json:"version"`
	Installation string `json:"installation"`
	Instance     string `json:"instance"`
	// Kept is opaque to the inventory; before Items, which encode
	// writes after the rest, as Reconciled.
	Kept json.RawMessage `json:"kept,omitempty"`
	// Reconciled is the outcome of the last landscaper_reconcile job;
	// the installation's next job of its own drops it.
	Reconciled *Reconciled `json:"reconciled,omitempty"`
	// Parts are the parts of a split record (version 2, parts.go), whose
	// head holds no Items.
	Parts []PartRef `json:"parts,omitempty"`
	// KeptParts hold Kept of a split record when it is larger than its
	// head holds (parts.go).
	KeptParts []PartRef      `json:"keptParts,omitempty"`
	Items     []RecordedItem `json:"items"`
}

// RecordedItem is one deploy item as far as rebuilding needs it, and the group
// kinds and namespaces of the objects its deployer manages, which the
// parent's ApplySet annotations list.
type RecordedItem struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Type   string          `json:"type"`
	Config json.RawMessage `json:"config,omitempty"`
	// SealedConfig is Config sealed when it holds a secret (seal.go):
	// Config is then empty. ConfigWithheld: it held one, and the job had
	// no key to seal it with.
	SealedConfig   []byte          `json:"sealedConfig,omitempty"`
	ConfigWithheld bool            `json:"configWithheld,omitempty"`
	ProviderStatus json.RawMessage `json:"providerStatus,omitempty"`
	GroupKinds     []string        `json:"groupKinds,omitempty"`
	Namespaces     []string        `json:"namespaces,omitempty"`
	// Homed: recorded in its deployer's home (deployer.Homed), not in its
	// target cluster, whose target is then not known here.
	Homed bool `json:"homed,omitempty"`
}

// recordItem is what the parent records of item after a call that returned
// res: its configuration with every write-only form masked
// (deployer.Item.WriteOnly: a write-only value is stored nowhere, and the
// record is read by whoever may read Secrets in its namespace; a masked
// item is not replayed, Engine.Replay), the provider status, kept as the
// deployer wrote it, and the group
// kinds and namespaces of the objects the deployer declared
// (deployer.Result.Objects), sorted and each once.
func recordItem(item deployer.Item, res deployer.Result) RecordedItem {
	it := RecordedItem{ID: item.ID, Name: item.Name, Type: item.Type, Config: item.WriteOnly.Mask(item.Config), ProviderStatus: res.ProviderStatus}
	gks, nss := map[string]bool{}, map[string]bool{}
	for _, o := range res.Objects {
		gv, err := schema.ParseGroupVersion(o.APIVersion)
		if err != nil || o.Kind == "" {
			continue
		}
		gks[schema.GroupKind{Group: gv.Group, Kind: o.Kind}.String()] = true
		if o.Namespace != "" {
			nss[o.Namespace] = true
		}
	}
	it.GroupKinds, it.Namespaces = sortedKeys(gks), sortedKeys(nss)
	return it
}

// installationPath is the path of the installation that holds it.
func (it RecordedItem) installationPath() string {
	return strings.TrimSuffix(it.ID, "/"+it.Name)
}

const recordVersion = 1

// entry is one item of a parent with what every write of the record needs
// of it, worked out once when the item is recorded: its JSON and the group
// kinds and other namespaces of the objects it deployed.
type entry struct {
	id                string
	raw               []byte
	kinds, namespaces []string
}

// newEntry is the entry of it, its configuration sealed as s says
// (seal.go): the one place a record's items are encoded.
func newEntry(it RecordedItem, s *sealing) (entry, error) {
	it, err := s.seal(it)
	if err != nil {
		return entry{}, err
	}
	raw, err := json.Marshal(it)
	if err != nil {
		return entry{}, err
	}
	return entry{id: it.ID, raw: raw, kinds: it.GroupKinds, namespaces: it.Namespaces}, nil
}

// content is a record about to be written.
type content struct {
	installation, instance string
	kept                   json.RawMessage
	reconciled             *Reconciled
	items                  []entry
	// key signs the record (sign.go) in the cluster of identity cluster;
	// unsigned without one.
	key     []byte
	cluster string
}

// encode is encodeSigned of a parent in namespace, without a signature.
func (c content) encode(namespace string) (record []byte, groupKinds, namespaces string, err error) {
	record, _, groupKinds, namespaces, err = c.encodeSigned(namespace, "")
	return record, groupKinds, namespaces, err
}

// encodeSigned puts the record's JSON (the same as json.Marshal of a Record)
// together from the items' encodings and gzips it, for speed over size —
// it is rewritten many times per job; it also returns the group kinds and
// other namespaces of the members, as the ApplySet annotations list them.
// With a key, signature is the record's signature as the parent name in
// namespace keeps it (Sign), made from the same bytes as they are written.
func (c content) encodeSigned(namespace, name string) (record []byte, signature, groupKinds, namespaces string, err error) {
	sort.Slice(c.items, func(i, j int) bool { return c.items[i].id < c.items[j].id })
	head, err := c.head()
	if err != nil {
		return nil, "", "", "", err
	}
	size := len(head) + 3 // "[", "]}"
	for _, e := range c.items {
		size += len(e.raw) + 1
	}
	if size > maxRecordSize {
		return nil, "", "", "", fmt.Errorf("the record of %d deploy items is %d bytes uncompressed, more than the %d an inventory may hold; "+
			"split the installation, so that fewer items deploy to one cluster", len(c.items), size, maxRecordSize)
	}
	var buf bytes.Buffer
	zw, ok := gzipWriters.Get().(*gzip.Writer)
	if !ok { // the pool holds nothing else
		zw, _ = gzip.NewWriterLevel(nil, gzip.BestSpeed)
	}
	defer gzipWriters.Put(zw)
	zw.Reset(&buf)
	var w io.Writer = zw
	var mac hash.Hash
	if c.key != nil {
		mac = newMAC(c.key, c.cluster, namespace, name)
		w = io.MultiWriter(zw, mac)
	}
	_, _ = w.Write(head)
	_, _ = w.Write([]byte("["))
	gks, nss := map[string]bool{}, map[string]bool{}
	for i, e := range c.items {
		if i > 0 {
			_, _ = w.Write([]byte(","))
		}
		_, _ = w.Write(e.raw)
		for _, k := range e.kinds {
			gks[k] = true
		}
		for _, ns := range e.namespaces {
			nss[ns] = ns != namespace
		}
	}
	_, _ = w.Write([]byte("]}"))
	if err := zw.Close(); err != nil {
		return nil, "", "", "", err
	}
	if mac != nil {
		signature = hex.EncodeToString(mac.Sum(nil))
	}
	return buf.Bytes(), signature, joinSorted(gks), joinSorted(nss), nil
}

// head is the record up to its items: `{"version":…,"installation":…,
// "instance":…,"kept":…,"reconciled":…,"items":`, the bytes json.Marshal
// writes for a Record with these fields. Kept is copied as it is, not
// passed through json.Marshal, which would compact it — it holds the
// installation's attributes and snapshot, the largest part of a record,
// and compacting it on every write cost about 6 % of an apply's CPU at 1,000 items. It is
// valid JSON by construction: what Keep was given (json.Marshal's output)
// or what the parent held when read (json.Unmarshal checked it).
func (c content) head() ([]byte, error) {
	head, err := json.Marshal(Record{Version: recordVersion, Installation: c.installation, Instance: c.instance})
	if err != nil {
		return nil, err
	}
	// It ends in `"items":null}`; kept and reconciled go before "items".
	head = bytes.TrimSuffix(head, []byte(`"items":null}`))
	if len(c.kept) > 0 {
		head = append(append(append(head, `"kept":`...), c.kept...), ',')
	}
	if c.reconciled != nil {
		r, err := json.Marshal(c.reconciled)
		if err != nil {
			return nil, err
		}
		head = append(append(append(head, `"reconciled":`...), r...), ',')
	}
	return append(head, `"items":`...), nil
}

func (c content) labels(name, namespace string) map[string]string {
	return map[string]string{IDLabel: ApplySetID(name, namespace), deployer.InstanceLabel: c.instance}
}

func (c content) annotations(groupKinds, namespaces string) map[string]string {
	return map[string]string{
		ToolingAnnotation: Tooling, GroupKindsAnnotation: groupKinds, NamespacesAnnotation: namespaces,
		InstallationAnnotation: c.installation,
	}
}

// object is the parent as it is written in the single-Secret form: what
// the unstructured converter made of the typed Secret (without its null
// creationTimestamp, which server-side apply would take as a field this
// manager owns), built directly — the converter's reflection cost more
// than the rest of a write but the gzip.
func (c content) object(name, namespace string) (*unstructured.Unstructured, error) {
	record, signature, gks, nss, err := c.encodeSigned(namespace, name)
	if err != nil {
		return nil, err
	}
	return c.parentSecret(name, namespace, record, signature, gks, nss), nil
}

// parentSecret is the parent Secret name in namespace holding record (gzipped)
// and its signature ("" for none), annotated with the members' group
// kinds and other namespaces.
func (c content) parentSecret(name, namespace string, record []byte, signature, gks, nss string) *unstructured.Unstructured {
	data := map[string]any{recordKey: base64.StdEncoding.EncodeToString(record)}
	if signature != "" {
		data[signatureKey] = base64.StdEncoding.EncodeToString([]byte(signature))
	}
	labels, annotations := map[string]any{}, map[string]any{}
	for k, v := range c.labels(name, namespace) {
		labels[k] = v
	}
	for k, v := range c.annotations(gks, nss) {
		annotations[k] = v
	}
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Secret",
		"metadata": map[string]any{"name": name, "namespace": namespace, "labels": labels, "annotations": annotations},
		"type":     string(secretType),
		"data":     data,
	}}
}

// members are the group kinds and the namespaces other than namespace of
// the items' objects, as the ApplySet annotations list them.
func (c content) members(namespace string) (groupKinds, namespaces string) {
	gks, nss := map[string]bool{}, map[string]bool{}
	for _, e := range c.items {
		for _, k := range e.kinds {
			gks[k] = true
		}
		for _, ns := range e.namespaces {
			nss[ns] = ns != namespace
		}
	}
	return joinSorted(gks), joinSorted(nss)
}

// gzipWriters keeps the compressors between writes: each holds ~1.2 MB
// of state, which a new one per write of every parent allocated again.
// klauspost/compress's gzip at its fastest level: about twice the speed
// of compress/gzip's BestSpeed at the same size for a record, and any
// gzip reader reads it (compress.Gunzip).
var gzipWriters = sync.Pool{New: func() any {
	zw, _ := gzip.NewWriterLevel(io.Discard, gzip.BestSpeed) // a valid level: no error
	return zw
}}

// maxRecordSize bounds a parent's record uncompressed, read and written
// alike. A Secret holds at most 1 MiB of data (the API server's limit),
// so a record this package wrote holds at most 1 MiB of gzip. Records
// are JSON of deploy items, whose configs and statuses repeat a lot: the
// most repetitive one measured (thousands of items that differ in a name
// only) compressed 57 to 1, so a record that fits a Secret reaches about
// 60 MiB at most. Gzip itself allows 1,032 to 1, so without this bound a
// planted Secret of 1 MiB could make the provider inflate a gigabyte.
// Writes refuse a larger record, so no record this package wrote is ever
// refused when it is read.
const maxRecordSize = 64 << 20

// readRecord decodes a parent's record.
func readRecord(s *corev1.Secret) (Record, error) {
	rec, _, err := readRecordBytes(s)
	return rec, err
}

// readRecordBytes decodes a parent's record and returns it with its
// uncompressed bytes, which its signature covers. Of a split record
// (version 2) that is the head: its items are in its parts (readParts).
func readRecordBytes(s *corev1.Secret) (rec Record, raw []byte, err error) {
	raw, err = compress.Gunzip(s.Data[recordKey], maxRecordSize)
	if err != nil {
		return rec, nil, fmt.Errorf("inventory %s/%s: %w", s.Namespace, s.Name, err)
	}
	if err := json.Unmarshal(raw, &rec); err != nil {
		return rec, raw, fmt.Errorf("inventory %s/%s: %w", s.Namespace, s.Name, err)
	}
	if rec.Version == splitRecordVersion && len(rec.Items) > 0 {
		return rec, raw, fmt.Errorf("inventory %s/%s: a split record's head lists items", s.Namespace, s.Name)
	}
	if rec.Version != recordVersion && rec.Version != splitRecordVersion {
		return rec, raw, fmt.Errorf("inventory %s/%s: %w: version %d (this provider writes versions %d and %d; a newer provider wrote it)",
			s.Namespace, s.Name, errUnsupportedVersion, rec.Version, recordVersion, splitRecordVersion)
	}
	return rec, raw, nil
}

// joinSorted joins the keys set to true, sorted and comma-separated as
// kubectl expects.
func joinSorted(set map[string]bool) string {
	return strings.Join(sortedKeys(set), ",")
}

// sortedKeys are the keys set to true, sorted; nil when there are none.
func sortedKeys(set map[string]bool) []string {
	var out []string
	for k, in := range set {
		if in {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}
