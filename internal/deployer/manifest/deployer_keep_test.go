package manifest_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// TestApply_FailureBeforeWritingKeepsStatus: an Apply that fails before it
// writes anything (a config that does not parse, manifests that do not
// decode, no usable target) returns the previous status, in the stable
// order EncodeStatus gives it, so the item still records what it deployed.
func TestApply_FailureBeforeWritingKeepsStatus(t *testing.T) {
	prev := []manifest.ManagedResource{
		{Resource: manifest.ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Namespace: "b", Name: "y", UID: "u2"}, Hash: "h2"},
		{Resource: manifest.ObjectRef{APIVersion: "v1", Kind: "ConfigMap", Namespace: "a", Name: "x", UID: "u1"}, Hash: "h1"},
	}
	raw, err := json.Marshal(manifest.ProviderStatus{APIVersion: manifest.StatusAPIVersion, Kind: "ProviderStatus", ManagedResources: prev})
	if err != nil {
		t.Fatal(err)
	}
	want := string(manifest.EncodeStatus(prev))
	for name, config := range map[string]string{
		"ConfigNotJSON":   `{"manifests": [`,
		"ManifestInvalid": `{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration","manifests":[{"policy":"manage","manifest":{"kind":"ConfigMap"}}]}`,
		"NoTarget":        `{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration","manifests":[]}`,
	} {
		res, err := manifest.New(target.NewPool()).Apply(context.Background(), deployer.Item{ID: "i/x", Name: "x", Type: manifest.Type, Config: json.RawMessage(config), ProviderStatus: raw})
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		if string(res.ProviderStatus) != want {
			t.Fatalf("%s: status %s, want %s", name, res.ProviderStatus, want)
		}
	}
}
