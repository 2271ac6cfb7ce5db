package component_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
)

// TestRegistryLoad_ReferenceDigests proves the digest a component
// reference declares for a v2 descriptor (jsonNormalisation/v1) is
// checked when the reference is read: a match loads, a mismatch fails
// naming the component version and the reference, and a digest of a
// normalisation this reader does not compute is not checked.
func TestRegistryLoad_ReferenceDigests(t *testing.T) {
	ctx := context.Background()
	mem := componenttest.Memory{}
	if _, err := componenttest.PushVersion(ctx, mem.Open, testContext, "example.com/lib", "1.0.0", componenttest.Version{Legacy: true, Descriptor: `
meta: {schemaVersion: v2}
component:
  name: example.com/lib
  version: 1.0.0
  provider: internal
  repositoryContexts: [{type: ociRegistry, baseUrl: registry.test/base}]
  sources: []
  componentReferences: []
  resources: []
`}); err != nil {
		t.Fatal(err)
	}
	// lib's normalised form, written from the rules.
	sum := sha256.Sum256([]byte(`[{"component":[{"componentReferences":[]},{"name":"example.com/lib"},{"provider":"internal"},` +
		`{"resources":[]},{"version":"1.0.0"}]},{"meta":[{"schemaVersion":"v2"}]}]`))
	libDigest := hex.EncodeToString(sum[:])
	for name, digest := range map[string]string{
		"match":     `{hashAlgorithm: SHA-256, normalisationAlgorithm: jsonNormalisation/v1, value: "` + libDigest + `"}`,
		"mismatch":  `{hashAlgorithm: SHA-256, normalisationAlgorithm: jsonNormalisation/v1, value: "0000"}`,
		"unchecked": `{hashAlgorithm: SHA-256, normalisationAlgorithm: jsonNormalisation/v3, value: "0000"}`,
	} {
		if _, err := componenttest.PushVersion(ctx, mem.Open, testContext, "example.com/"+name, "1.0.0", componenttest.Version{Descriptor: fmt.Sprintf(`
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/%s, version: 1.0.0, provider: {name: test}}
spec:
  references: [{name: lib, componentName: example.com/lib, version: 1.0.0, digest: %s}]
`, name, digest)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"match", "unchecked"} {
		if _, _, err := load(t, mem, t.TempDir(), "example.com/"+name, "1.0.0"); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	_, _, err := load(t, mem, t.TempDir(), "example.com/mismatch", "1.0.0")
	want := `component example.com/mismatch:1.0.0 reference "lib" (example.com/lib:1.0.0): digest mismatch`
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), libDigest) {
		t.Errorf("mismatch: %v", err)
	}
}
