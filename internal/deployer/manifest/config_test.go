package manifest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

func TestParseConfig_Valid(t *testing.T) {
	// v1alpha1's plain list becomes manifests with policy manage; defaults are filled in.
	cfg, err := ParseConfig(json.RawMessage(`{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderConfiguration","manifests":[{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"foo"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Manifests) != 1 || cfg.Manifests[0].Policy != PolicyManage || cfg.UpdateStrategy != UpdateStrategyUpdate {
		t.Fatalf("unexpected config: %+v", cfg)
	}
}

func TestParseConfig_Invalid(t *testing.T) {
	for _, tc := range []struct{ name, config, mention string }{
		{"Empty", ``, "empty"},
		{"NotJSON", `{`, "unexpected"},
		{"WrongKind", `{"kind":"Other"}`, "kind"},
		{"UnknownStrategy", `{"updateStrategy":"sideways"}`, "updateStrategy"},
		{"UnknownPolicy", `{"manifests":[{"policy":"own","manifest":{}}]}`, "policy"},
		{"MissingManifest", `{"manifests":[{"policy":"manage"}]}`, "manifest is missing"},
		{"KubeconfigInConfig", `{"kubeconfig":"apiVersion: v1"}`, "kubeconfig"},
		{"BadOperator", `{"readinessChecks":{"custom":[{"name":"c","resourceSelector":[{"apiVersion":"v1","kind":"Pod","name":"p"}],"requirements":[{"jsonPath":".a","operator":"~"}]}]}}`, "operator"},
		{"CheckWithoutSelector", `{"readinessChecks":{"custom":[{"name":"c","requirements":[]}]}}`, "resourceSelector"},
		{"BadJSONPath", `{"readinessChecks":{"custom":[{"name":"c","resourceSelector":[{"apiVersion":"v1","kind":"Pod","name":"p"}],"requirements":[{"jsonPath":"{.a","operator":"exists"}]}]}}`, "jsonPath"},
		{"ExportWithoutResource", `{"exports":{"exports":[{"key":"k","jsonPath":".a"}]}}`, "fromResource"},
		{"GroupBothKinds", `{"deletionGroups":[{"predefinedResourceGroup":{"type":"crds"},"customResourceGroup":{}}]}`, "exactly one"},
		{"GroupUnknownType", `{"deletionGroups":[{"predefinedResourceGroup":{"type":"pods"}}]}`, "pods"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig(json.RawMessage(tc.config))
			// Every invalid configuration is terminal and says what is wrong.
			if !failure.IsTerminal(err) || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("ParseConfig(%s) = %v, want a terminal error mentioning %q", tc.config, err, tc.mention)
			}
		})
	}
}

func TestDecodeManifests_Invalid(t *testing.T) {
	for _, tc := range []struct{ name, manifest, mention string }{
		{"NoKind", `{"apiVersion":"v1","metadata":{"name":"x"}}`, "no apiVersion or kind"},
		{"NoName", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{}}`, "no metadata.name"},
		{"GenerateName", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"generateName":"x-"}}`, "generateName"},
		{"NotAnObject", `[1]`, "not an object"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeManifests("item", []Manifest{{Policy: PolicyManage, Manifest: json.RawMessage(tc.manifest)}})
			if err == nil || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("DecodeManifests = %v, want an error mentioning %q", err, tc.mention)
			}
		})
	}
}
