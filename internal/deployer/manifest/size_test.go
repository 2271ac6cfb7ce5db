package manifest

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

// An object the API server would refuse for its size is refused by
// Validate (at plan), terminal with ReasonTooLarge, naming the object,
// its size and the limit; one just below every limit is accepted.
func TestValidate_SizeLimits(t *testing.T) {
	config := func(manifest string) []byte {
		return []byte(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration","manifests":[{"policy":"manage","manifest":` + manifest + `}]}`)
	}
	configMap := func(value string) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"big","namespace":"ns"},"data":{"k":%q}}`, value)
	}
	secret := func(field, value string) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"Secret","metadata":{"name":"big","namespace":"ns"},%q:{"k":%q}}`, field, value)
	}
	crd := func(n int) string {
		return fmt.Sprintf(`{"apiVersion":"example.com/v1","kind":"Blob","metadata":{"name":"big","namespace":"ns"},"spec":{"v":%q}}`, strings.Repeat("x", n))
	}
	for _, tc := range []struct {
		name, manifest, want string
	}{
		{"ConfigMap at the limit", configMap(strings.Repeat("x", maxDataBytes-1)), ""},
		{"ConfigMap beyond", configMap(strings.Repeat("x", maxDataBytes)), "its data are 1048577 bytes, more than the 1048576"},
		{"Secret data beyond", secret("data", base64.StdEncoding.EncodeToString(make([]byte, maxDataBytes+1))), "its data are 1048577 bytes"},
		{"Secret stringData beyond", secret("stringData", strings.Repeat("x", maxDataBytes+1)), "its data are 1048577 bytes"},
		{"Secret at the limit", secret("stringData", strings.Repeat("x", maxDataBytes)), ""},
		{"object below the request limit", crd(maxRequestBytes - 200), ""},
		{"object beyond the request limit", crd(maxRequestBytes), "more than the 3145728 bytes the API server takes in one request"},
	} {
		err := (&Deployer{}).Validate(config(tc.manifest))
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "big") ||
			failure.Reason(err) != failure.ReasonTooLarge || !failure.IsTerminal(err)):
			t.Errorf("%s: err = %v (reason %q), want terminal %s naming the object and %q", tc.name, err, failure.Reason(err), failure.ReasonTooLarge, tc.want)
		}
	}
}
