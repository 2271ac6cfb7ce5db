package component

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/blueprint/component/ocireg"
)

// A resource's declared digest that cannot be checked fails the read,
// naming the component, the resource and the opt-out, as a reference's
// does: a digest that is no digest spec, another hash, another
// normalisation, an ociArtifactDigest of content read as a local blob.
// registry.allow_unverified_digests (Registry.AllowUnverifiedDigests)
// makes each a warning. A resource without a digest or marked as excluded
// from signatures declares nothing; a digest that does not match fails
// whatever is allowed. Before, every unverifiable digest was skipped.
func TestFetch_ResourceDigestsFailClosed(t *testing.T) {
	data := []byte("chart bytes")
	sum := sha256.Sum256(data)
	good := hex.EncodeToString(sum[:])
	digest := func(hash, norm, value string) string {
		b, _ := json.Marshal(map[string]string{"hashAlgorithm": hash, "normalisationAlgorithm": norm, "value": value})
		return string(b)
	}
	cases := []struct {
		name, digest string
		want         string // "" ok, "unverifiable", or an error text
	}{
		{"none", ``, ""},
		{"null", `null`, ""},
		{"excluded from signatures", digest("NO-DIGEST", "EXCLUDE-FROM-SIGNATURE", "NO-DIGEST"), ""},
		{"generic blob", digest("sha256", "genericBlobDigest/v1", good), ""},
		{"generic blob in upper case", digest("SHA-256", "genericBlobDigest/v1", strings.ToUpper(good)), ""},
		{"mismatch", digest("sha256", "genericBlobDigest/v1", strings.Repeat("0", 64)), "digest mismatch"},
		{"a string", `"sha256:` + good + `"`, "unverifiable"},
		{"incomplete", `{"hashAlgorithm":"sha256","value":"` + good + `"}`, "unverifiable"},
		{"another hash", digest("sha512", "genericBlobDigest/v1", good), "unverifiable"},
		{"another normalisation", digest("sha256", "jsonNormalisation/v2", good), "unverifiable"},
		{"OCI artifact digest of a local blob", digest("sha256", "ociArtifactDigest/v1", good), "unverifiable"},
	}
	for _, allow := range []bool{false, true} {
		for _, c := range cases {
			client := ocireg.New(ocireg.Options{})
			comp := &Component{Archive: fstest.MapFS{"blobs/chart": {Data: data}},
				Descriptor: &Descriptor{Component: Spec{Name: "example.com/app", Version: "1.0.0"}},
				registry:   &Registry{Client: client, AllowUnverifiedDigests: allow}}
			res := Resource{Name: "chart", Access: json.RawMessage(`{"type":"localBlob","localReference":"chart"}`)}
			if c.digest != "" {
				res.Digest = json.RawMessage(c.digest)
			}
			b, err := comp.Fetch(context.Background(), res)
			want := c.want
			if want == "unverifiable" && allow {
				want = ""
				if w := client.Warnings(); len(w) != 1 || !strings.Contains(w[0], `resource "chart"`) {
					t.Errorf("allowed %s: warnings %q, want one naming the resource", c.name, w)
				}
			}
			switch {
			case want == "" && (err != nil || string(b.Data) != string(data)):
				t.Errorf("allow %v, %s: %q, %v", allow, c.name, b.Data, err)
			case want == "unverifiable" && (err == nil || !strings.Contains(err.Error(), `component example.com/app:1.0.0 resource "chart": digest cannot be verified`) ||
				!strings.Contains(err.Error(), "registry.allow_unverified_digests")):
				t.Errorf("allow %v, %s: %v, want it refused as unverifiable", allow, c.name, err)
			case want != "" && want != "unverifiable" && (err == nil || !strings.Contains(err.Error(), want)):
				t.Errorf("allow %v, %s: %v, want %q", allow, c.name, err, want)
			}
		}
	}
}
