package component_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/componenttest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// TestRegistryLoad_ReferenceDigests proves the digest a component
// reference declares for a v2 descriptor (jsonNormalisation/v1) is
// checked when the reference is read: a match loads, a mismatch fails
// naming the component version and the reference.
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
		"match":    `{hashAlgorithm: SHA-256, normalisationAlgorithm: jsonNormalisation/v1, value: "` + libDigest + `"}`,
		"mismatch": `{hashAlgorithm: SHA-256, normalisationAlgorithm: jsonNormalisation/v1, value: "0000"}`,
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
	for _, name := range []string{"match"} {
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

// TestRegistryLoad_UnverifiableDigestFails proves a pinned reference
// digest this reader cannot verify fails the load naming the component,
// its version and the reference — whoever can move a tag must not get a
// pinned digest ignored by swapping in a descriptor jsonNormalisation/v1
// does not cover — and that the registry's opt-out loads it instead,
// with a warning.
func TestRegistryLoad_UnverifiableDigestFails(t *testing.T) {
	ctx := context.Background()
	mem := componenttest.Memory{}
	libs := map[string]string{
		// The tag moved to a v3alpha1 descriptor.
		"example.com/lib-v3": "apiVersion: ocm.software/v3alpha1\nkind: ComponentVersion\n" +
			"metadata: {name: example.com/lib-v3, version: 1.0.0, provider: {name: test}}\nspec: {}\n",
		// The tag moved to a v2 descriptor with a resource without digest.
		"example.com/lib-nodigest": "meta: {schemaVersion: v2}\ncomponent: {name: example.com/lib-nodigest, version: 1.0.0, " +
			"provider: internal, repositoryContexts: [], sources: [], componentReferences: [], " +
			"resources: [{name: r, version: '1', type: blob, relation: local, access: {type: localBlob, localReference: x}}]}\n",
		"example.com/lib": "meta: {schemaVersion: v2}\ncomponent: {name: example.com/lib, version: 1.0.0, provider: internal, " +
			"repositoryContexts: [], sources: [], componentReferences: [], resources: []}\n",
	}
	for name, d := range libs {
		if _, err := componenttest.PushVersion(ctx, mem.Open, testContext, name, "1.0.0", componenttest.Version{Descriptor: d}); err != nil {
			t.Fatal(err)
		}
	}
	v1 := `{hashAlgorithm: SHA-256, normalisationAlgorithm: jsonNormalisation/v1, value: "00aa"}`
	cases := map[string]struct{ lib, digest string }{
		"v3alpha1":          {"example.com/lib-v3", v1},
		"resource-nodigest": {"example.com/lib-nodigest", v1},
		"normalisation-v3":  {"example.com/lib", `{hashAlgorithm: SHA-256, normalisationAlgorithm: jsonNormalisation/v3, value: "00aa"}`},
		"sha512":            {"example.com/lib", `{hashAlgorithm: SHA-512, normalisationAlgorithm: jsonNormalisation/v1, value: "00aa"}`},
		"malformed":         {"example.com/lib", `[not, a, digest]`},
	}
	for name, c := range cases {
		if _, err := componenttest.PushVersion(ctx, mem.Open, testContext, "example.com/"+name, "1.0.0", componenttest.Version{Descriptor: fmt.Sprintf(`
apiVersion: ocm.software/v3alpha1
kind: ComponentVersion
metadata: {name: example.com/%s, version: 1.0.0, provider: {name: test}}
spec:
  references: [{name: lib, componentName: %s, version: 1.0.0, digest: %s}]
`, name, c.lib, c.digest)}); err != nil {
			t.Fatal(err)
		}
	}
	for name, c := range cases {
		_, _, err := load(t, mem, t.TempDir(), "example.com/"+name, "1.0.0")
		want := fmt.Sprintf(`component example.com/%s:1.0.0 reference "lib" (%s:1.0.0): digest cannot be verified`, name, c.lib)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "allow_unverified_digests") {
			t.Errorf("%s: got %v, want an error containing %q and naming the opt-out", name, err, want)
		}
		client := ocireg.New(ocireg.Options{CacheDir: t.TempDir(), Repository: mem.Read})
		reg := &component.Registry{Client: client, AllowUnverifiedDigests: true}
		if _, err := reg.Load(ctx, component.VersionRef{Context: testContext, Name: "example.com/" + name, Version: "1.0.0"}); err != nil {
			t.Errorf("%s with the opt-out: %v", name, err)
		}
		if w := client.Warnings(); len(w) != 1 || !strings.Contains(w[0], `reference "lib"`) || !strings.Contains(w[0], "not verified") {
			t.Errorf("%s with the opt-out: warnings %q", name, w)
		}
	}
}
