package component

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"testing"
)

// TestNormalisedV1 proves jsonNormalisation/v1 keeps exactly the signing
// relevant fields of a v2 descriptor, in the normalised form: labels,
// sources, repository contexts, accesses and source references left out,
// extra identities sorted (null when absent), no digest for a resource
// without content. The expected text is written from the rules, not
// computed.
func TestNormalisedV1(t *testing.T) {
	stored, err := os.ReadFile("testdata/normalise/full.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"component":[{"componentReferences":[[{"componentName":"example.com/db"},` +
		`{"digest":[{"hashAlgorithm":"SHA-256"},{"normalisationAlgorithm":"jsonNormalisation/v1"},{"value":"00aa"}]},` +
		`{"extraIdentity":[{"arch":"amd64"},{"zone":"b"}]},{"name":"db"},{"version":"2.0.0"}]]},` +
		`{"name":"example.com/full"},{"provider":"internal"},` +
		`{"resources":[[{"digest":[{"hashAlgorithm":"SHA-256"},{"normalisationAlgorithm":"ociArtifactDigest/v1"},{"value":"11bb"}]},` +
		`{"extraIdentity":[{"os":"linux"}]},{"name":"chart"},{"relation":"external"},{"type":"helmChart"},{"version":"0.1.0"}],` +
		`[{"extraIdentity":null},{"name":"placeholder"},{"relation":"local"},{"type":"plainText"},{"version":"0.1.0"}]]},` +
		`{"version":"1.2.3"}]},{"meta":[{"schemaVersion":"v2"}]}]`
	got, err := normalisedV1(stored)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("normalised:\n got %s\nwant %s", got, want)
	}
	// The same digest component-cli computes for this descriptor
	// (checked once against its implementation).
	sum := sha256.Sum256(got)
	if h := hex.EncodeToString(sum[:]); h != fullDescriptorDigest {
		t.Errorf("digest %s, want %s", h, fullDescriptorDigest)
	}
}

// fullDescriptorDigest is component-cli's jsonNormalisation/v1 digest of testdata/normalise/full.yaml.
const fullDescriptorDigest = "5267a77f4ab1695ddf2d4499d990669d7249de761753a528773f77ed430f1a78"

// TestNormalisedV1_NotNormalisable proves descriptors this normalisation
// does not cover are reported as such (their digests are not checked).
func TestNormalisedV1_NotNormalisable(t *testing.T) {
	for name, doc := range map[string]string{
		"v3alpha1":              "apiVersion: ocm.software/v3alpha1\nkind: ComponentVersion\nmetadata: {name: a, version: '1'}\n",
		"reference w/o digest":  "meta: {schemaVersion: v2}\ncomponent: {name: a, version: '1', provider: p, componentReferences: [{name: b, componentName: b, version: '1'}], resources: []}\n",
		"resource w/o digest":   "meta: {schemaVersion: v2}\ncomponent: {name: a, version: '1', provider: p, resources: [{name: r, version: '1', type: t, access: {type: localBlob}}]}\n",
		"provider object (OCM)": "meta: {schemaVersion: v2}\ncomponent: {name: a, version: '1', provider: {name: p}}\n",
	} {
		if _, err := normalisedV1([]byte(doc)); !errors.Is(err, errNotNormalisable) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
