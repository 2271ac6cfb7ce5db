package component

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// Reference digests. A component reference may carry the digest of the
// referenced component descriptor, hashed over a normalised form of it.
// This package computes "jsonNormalisation/v1" of descriptors stored in
// schema v2 (component-cli's normalisation, which OCM reproduces for v2
// descriptors): the JSON of the signing-relevant fields, every object
// turned into a list of one-key objects sorted by key. Other
// normalisations (OCM's jsonNormalisation/v2 and /v3, v1 of v3alpha1
// descriptors) are not computed: such a digest fails the load
// (unverifiableError) unless the user allows unverified digests.

const normalisationJSONV1 = "jsonNormalisation/v1"

// errNotNormalisable means the descriptor lacks what the normalisation
// needs (a digest of a resource or reference), or is not of schema v2.
var errNotNormalisable = errors.New("not normalisable")

// entry is one key/value pair of the normalised form.
type entry = map[string]any

// normalisedV1 returns jsonNormalisation/v1 of a descriptor as stored
// (YAML or JSON); errNotNormalisable when it is not a v2 descriptor with
// a digest on every reference and on every resource with an access.
func normalisedV1(stored []byte) ([]byte, error) {
	data, err := yaml.YAMLToJSON(stored)
	if err != nil {
		return nil, err
	}
	var d struct {
		APIVersion string `json:"apiVersion"`
		Meta       struct {
			SchemaVersion string `json:"schemaVersion"`
		} `json:"meta"`
		Component struct {
			Name                string          `json:"name"`
			Version             string          `json:"version"`
			Provider            json.RawMessage `json:"provider"`
			ComponentReferences []struct {
				Name          string            `json:"name"`
				ComponentName string            `json:"componentName"`
				Version       string            `json:"version"`
				ExtraIdentity map[string]string `json:"extraIdentity"`
				Digest        *digestSpec       `json:"digest"`
			} `json:"componentReferences"`
			Resources []struct {
				Name          string            `json:"name"`
				Version       string            `json:"version"`
				Type          string            `json:"type"`
				Relation      string            `json:"relation"`
				ExtraIdentity map[string]string `json:"extraIdentity"`
				Access        *struct {
					Type string `json:"type"`
				} `json:"access"`
				Digest *digestSpec `json:"digest"`
			} `json:"resources"`
		} `json:"component"`
	}
	if err := json.Unmarshal(data, &d); err != nil || d.APIVersion != "" || d.Meta.SchemaVersion != SchemaVersionV2 {
		return nil, errNotNormalisable
	}
	var provider any
	if err := json.Unmarshal(d.Component.Provider, &provider); err != nil {
		return nil, errNotNormalisable
	}
	if _, ok := provider.(string); !ok {
		return nil, errNotNormalisable // a provider object is OCM's v3 shape
	}
	refs := []any{}
	for _, r := range d.Component.ComponentReferences {
		if r.Digest == nil || !r.Digest.complete() {
			return nil, errNotNormalisable
		}
		refs = append(refs, sorted(
			entry{"componentName": r.ComponentName}, entry{"name": r.Name}, entry{"version": r.Version},
			entry{"extraIdentity": identityEntries(r.ExtraIdentity)}, entry{"digest": r.Digest.entries()}))
	}
	resources := []any{}
	for _, r := range d.Component.Resources {
		fields := []entry{{"name": r.Name}, {"version": r.Version}, {"type": r.Type}, {"relation": r.Relation},
			{"extraIdentity": identityEntries(r.ExtraIdentity)}}
		// A resource without content (no access, or access type None) has no digest.
		if r.Access != nil && r.Access.Type != "None" {
			if r.Digest == nil || !r.Digest.complete() {
				return nil, errNotNormalisable
			}
			fields = append(fields, entry{"digest": r.Digest.entries()})
		}
		resources = append(resources, sorted(fields...))
	}
	doc := sorted(
		entry{"meta": sorted(entry{"schemaVersion": d.Meta.SchemaVersion})},
		entry{"component": sorted(entry{"name": d.Component.Name}, entry{"version": d.Component.Version},
			entry{"provider": provider}, entry{"componentReferences": refs}, entry{"resources": resources})},
	)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// digestSpec is OCM's digest: hash algorithm, normalisation, hex value.
type digestSpec struct {
	HashAlgorithm          string `json:"hashAlgorithm"`
	NormalisationAlgorithm string `json:"normalisationAlgorithm"`
	Value                  string `json:"value"`
}

func (d digestSpec) complete() bool {
	return d.HashAlgorithm != "" && d.NormalisationAlgorithm != "" && d.Value != ""
}

func (d digestSpec) entries() []entry {
	return []entry{{"hashAlgorithm": d.HashAlgorithm}, {"normalisationAlgorithm": d.NormalisationAlgorithm}, {"value": d.Value}}
}

func (d digestSpec) isSHA256() bool {
	return strings.EqualFold(strings.ReplaceAll(d.HashAlgorithm, "-", ""), "sha256")
}

// identityEntries is an extra identity in normalised form; null when empty.
func identityEntries(id map[string]string) []entry {
	if len(id) == 0 {
		return nil
	}
	out := make([]entry, 0, len(id))
	for k, v := range id {
		out = append(out, entry{k: v})
	}
	return sorted(out...)
}

// sorted orders one-key entries by their key.
func sorted(entries ...entry) []entry {
	key := func(e entry) string {
		for k := range e {
			return k
		}
		return ""
	}
	sort.SliceStable(entries, func(i, j int) bool { return key(entries[i]) < key(entries[j]) })
	return entries
}

// unverifiableError means a reference pins a digest this reader cannot
// check: of another hash or normalisation, not a digest at all, or of a
// descriptor jsonNormalisation/v1 does not cover. It fails the load — a
// tag moved to such a descriptor would otherwise void the pin — unless
// Registry.AllowUnverifiedDigests, which makes it a warning.
type unverifiableError struct{ which, why string }

func (e *unverifiableError) Error() string {
	return e.which + ": digest cannot be verified: " + e.why +
		" (set registry.allow_unverified_digests = true in the provider block to load it unverified)"
}

// warning is the message when the user allowed unverified digests.
func (e *unverifiableError) warning() string {
	return e.which + ": digest not verified, as registry.allow_unverified_digests allows: " + e.why
}

// verifyReference checks the digest a reference declares against the
// descriptor it resolved to (stored as read from the registry).
func verifyReference(owner *Component, index int, stored []byte) error {
	ref := owner.Descriptor.Component.ComponentReferences[index]
	if len(ref.Digest) == 0 || string(ref.Digest) == "null" {
		return nil
	}
	which := fmt.Sprintf("component %s:%s reference %q (%s:%s)",
		owner.Descriptor.Component.Name, owner.Descriptor.Component.Version, ref.Name, ref.ComponentName, ref.Version)
	unverifiable := func(why string, args ...any) error {
		return &unverifiableError{which: which, why: fmt.Sprintf(why, args...)}
	}
	var want digestSpec
	if err := json.Unmarshal(ref.Digest, &want); err != nil || !want.complete() {
		return unverifiable("the digest is not an object of hashAlgorithm, normalisationAlgorithm and value")
	}
	if !want.isSHA256() || want.NormalisationAlgorithm != normalisationJSONV1 {
		return unverifiable("it is %s over %s; only SHA-256 over %s is computed", want.HashAlgorithm, want.NormalisationAlgorithm, normalisationJSONV1)
	}
	normalised, err := normalisedV1(stored)
	if errors.Is(err, errNotNormalisable) {
		return unverifiable("the referenced descriptor is not one %s covers (schema v2, a provider name, a digest on every reference and on every resource with content)", normalisationJSONV1)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", which, err)
	}
	sum := sha256.Sum256(normalised)
	if got := hex.EncodeToString(sum[:]); !strings.EqualFold(got, want.Value) {
		return fmt.Errorf("%s: digest mismatch: the reference declares sha256 %s (%s), the referenced descriptor has %s",
			which, want.Value, normalisationJSONV1, got)
	}
	return nil
}
