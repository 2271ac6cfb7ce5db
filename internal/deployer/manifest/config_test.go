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
		{"CheckWithoutName", `{"readinessChecks":{"custom":[{"resourceSelector":[{"apiVersion":"v1","kind":"Pod","name":"p"}],"requirements":[{"jsonPath":".a","operator":"exists"}]}]}}`, "name is required"},
		{"CheckWithoutRequirements", `{"readinessChecks":{"custom":[{"name":"c","resourceSelector":[{"apiVersion":"v1","kind":"Pod","name":"p"}]}]}}`, "requirements must have at least one entry"},
		{"CheckEmptyLabels", `{"readinessChecks":{"custom":[{"name":"c","labelSelector":{"apiVersion":"v1","kind":"Pod","matchLabels":{}},"requirements":[{"jsonPath":".a","operator":"exists"}]}]}}`, "matchLabels"},
		// The unwrapped form Landscaper refuses.
		{"BareRequirementValue", `{"readinessChecks":{"custom":[{"name":"c","resourceSelector":[{"apiVersion":"v1","kind":"Pod","name":"p"}],"requirements":[{"jsonPath":".a","operator":"==","values":["true"]}]}]}}`, "readinessChecks.custom[0] (c).requirements[0]: values[0] is a string, not an object {value: …}"},
		// targetName (Landscaper's additional targets): a name, and for a
		// deletion group deleteAllResources, as Landscaper requires.
		{"ExportEmptyTargetName", `{"exports":{"exports":[{"key":"k","jsonPath":".a","fromResource":{"apiVersion":"v1","kind":"ConfigMap","name":"c"},"targetName":""}]}}`, `exports.exports[0] (k): targetName is empty`},
		{"CheckEmptyTargetName", `{"readinessChecks":{"custom":[{"name":"c","targetName":"","resourceSelector":[{"apiVersion":"v1","kind":"Pod","name":"p"}],"requirements":[{"jsonPath":".a","operator":"exists"}]}]}}`, `readinessChecks.custom[0] (c): targetName is empty`},
		{"GroupTargetNameWithoutDeleteAll", `{"deletionGroups":[{"customResourceGroup":{"resources":[{"apiVersion":"v1","kind":"ConfigMap"}],"targetName":"secondary"}}]}`, `deletionGroups[0].customResourceGroup: targetName needs deleteAllResources: true`},
		{"GroupDuringUpdateTargetName", `{"deletionGroupsDuringUpdate":[{"customResourceGroup":{"resources":[{"apiVersion":"v1","kind":"ConfigMap"}],"targetName":"secondary"}}]}`, "deletionGroupsDuringUpdate[0].customResourceGroup: targetName needs deleteAllResources"},
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

// TestConfigWarnings_UnknownFields: every field that neither Landscaper's
// manifest deployer nor the provider declares is a plan warning naming
// its path; the manifests themselves, and v1alpha1's plain list of them,
// are objects of the target cluster, not fields of the configuration.
func TestConfigWarnings_UnknownFields(t *testing.T) {
	for _, tc := range []struct {
		name, config string
		want         []string
	}{
		{"V1alpha2", `{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha2","kind":"ProviderConfiguration","updateStrategie":"patch",
			"manifests":[{"polcy":"keep","manifest":{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"},"whatever":1}}],
			"exports":{"defaultTimeout":"1m","exports":[{"key":"k","jsonPath":".a","fromResource":{"apiVersion":"v1","kind":"ConfigMap","name":"a"},"timeout":"1m"}]},
			"deletionGroups":[{"customResourceGroup":{"resources":[{"apiVersion":"v1","kind":"ConfigMap","name":"a"}]}}]}`,
			[]string{"config.deletionGroups[0].customResourceGroup.resources[0].name", "config.exports.defaultTimeout", "config.exports.exports[0].timeout",
				"config.manifests[0].polcy", "config.updateStrategie"}},
		{"V1alpha1", `{"apiVersion":"manifest.deployer.landscaper.gardener.cloud/v1alpha1","kind":"ProviderConfiguration","manifests":[{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"a"}}],"healthChecks":{}}`,
			[]string{"config.healthChecks"}},
		{"Clean", `{"manifests":[],"readinessChecks":{"disableDefault":true}}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := (&Deployer{}).ConfigWarnings(json.RawMessage(tc.config))
			var paths []string
			for _, w := range got {
				path, _, _ := strings.Cut(w, ": ")
				paths = append(paths, path)
				if !strings.Contains(w, "unknown field of the manifest deployer's configuration, ignored") {
					t.Errorf("warning %q does not say what the field is and that it is ignored", w)
				}
			}
			if strings.Join(paths, " ") != strings.Join(tc.want, " ") {
				t.Fatalf("warnings for %v, want %v", paths, tc.want)
			}
		})
	}
}

// TestTargetNames: the other targets a configuration names, each once, in
// the order checks, exports, deletion groups.
func TestTargetNames(t *testing.T) {
	cfg, err := ParseConfig(json.RawMessage(`{
		"readinessChecks":{"custom":[{"name":"c","targetName":"b","resourceSelector":[{"apiVersion":"v1","kind":"Pod","name":"p"}],"requirements":[{"jsonPath":".a","operator":"exists"}]}]},
		"exports":{"exports":[{"key":"k","jsonPath":".a","fromResource":{"apiVersion":"v1","kind":"ConfigMap","name":"c"},"targetName":"a"},
			{"key":"l","jsonPath":".a","fromResource":{"apiVersion":"v1","kind":"ConfigMap","name":"c"},"targetName":"b"},
			{"key":"m","jsonPath":".a","fromResource":{"apiVersion":"v1","kind":"ConfigMap","name":"c"}}]},
		"deletionGroups":[{"customResourceGroup":{"resources":[{"apiVersion":"v1","kind":"ConfigMap"}],"deleteAllResources":true,"targetName":"c"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(cfg.TargetNames(), ","); got != "b,a,c" {
		t.Fatalf("TargetNames = %s, want b,a,c", got)
	}
}
