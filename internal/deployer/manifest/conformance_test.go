package manifest_test

import (
	"encoding/json"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/deployertest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer/manifest"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/testsupport/localcluster"
)

func TestMain(m *testing.M) { localcluster.Main(m) }

// manifestConfig is a v1alpha2 ProviderConfiguration managing objects.
func manifestConfig(t *testing.T, objects []map[string]any, extra map[string]any) json.RawMessage {
	t.Helper()
	var manifests []any
	for _, o := range objects {
		manifests = append(manifests, map[string]any{"policy": "manage", "manifest": o})
	}
	cfg := map[string]any{
		"apiVersion": "manifest.deployer.landscaper.gardener.cloud/v1alpha2",
		"kind":       "ProviderConfiguration",
		"manifests":  manifests,
	}
	for k, v := range extra {
		cfg[k] = v
	}
	return deployertest.MustJSON(t, cfg)
}

// TestConformance_Manifest: the manifest deployer passes the conformance suite.
func TestConformance_Manifest(t *testing.T) {
	deployertest.Run(t, deployertest.Harness{
		Type: manifest.Type,
		New:  func(pool *target.Pool) deployer.Deployer { return manifest.New(pool) },
		Config: func(t *testing.T, _ string, objects []map[string]any) json.RawMessage {
			return manifestConfig(t, objects, nil)
		},
		Invalid: json.RawMessage(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration","updateStrategy":"sideways","manifests":[]}`),
	})
}
