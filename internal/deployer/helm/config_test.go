package helm

import (
	"encoding/json"
	"strings"
	"testing"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/failure"
)

func TestParseConfig_Invalid(t *testing.T) {
	const base = `"name":"r","namespace":"n"`
	for _, tc := range []struct{ name, config, mention string }{
		{"Empty", ``, "empty"},
		{"NoName", `{"namespace":"n","chart":{"ref":"x"}}`, "name"},
		{"NoNamespace", `{"name":"r","chart":{"ref":"x"}}`, "namespace"},
		{"NoChart", `{` + base + `}`, "exactly one"},
		{"TwoSources", `{` + base + `,"chart":{"ref":"x","path":"y"}}`, "exactly one"},
		{"ArchiveBoth", `{` + base + `,"chart":{"archive":{"raw":"eA==","remote":{"url":"http://x"}}}}`, "raw and remote"},
		{"RepoWithoutName", `{` + base + `,"chart":{"helmChartRepo":{"helmChartRepoUrl":"http://x"}}}`, "helmChartName"},
		{"FromResourceWithoutName", `{` + base + `,"chart":{"fromResource":{"ref":{"componentName":"a","version":"1"}}}}`, "resourceName is required"},
		{"FromResourceWithoutComponent", `{` + base + `,"chart":{"fromResource":{"resourceName":"chart"}}}`, "exactly one of ref and inline"},
		{"ResourceRefAndRef", `{` + base + `,"chart":{"resourceRef":"a2V5","ref":"r/c:1"}}`, "exactly one of"},
		{"ValuesNotObject", `{` + base + `,"chart":{"ref":"x"},"values":[1]}`, "values"},
		{"Kubeconfig", `{` + base + `,"chart":{"ref":"x"},"kubeconfig":"k"}`, "kubeconfig"},
		// The parts shared with the manifest deployer are checked as there.
		{"BareRequirementValue", `{` + base + `,"chart":{"ref":"x"},"readinessChecks":{"custom":[{"name":"c","resourceSelector":[{"apiVersion":"v1","kind":"Pod","name":"p"}],"requirements":[{"jsonPath":".a","operator":"==","values":["x"]}]}]}}`, "values[0] is a string, not an object {value: …}"},
		{"ExportEmptyTargetName", `{` + base + `,"chart":{"ref":"x"},"exportsFromManifests":[{"key":"k","jsonPath":".a","targetName":""}]}`, `exportsFromManifests[0] (k): targetName is empty`},
		{"GroupTargetNameWithoutDeleteAll", `{` + base + `,"chart":{"ref":"x"},"deletionGroups":[{"customResourceGroup":{"resources":[{"apiVersion":"v1","kind":"ConfigMap"}],"targetName":"secondary"}}]}`, "deletionGroups[0].customResourceGroup: targetName needs deleteAllResources"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseConfig(json.RawMessage(tc.config))
			// Every invalid configuration is terminal and says what is wrong.
			if !failure.IsTerminal(err) || !strings.Contains(err.Error(), tc.mention) {
				t.Fatalf("ParseConfig = %v, want a terminal error mentioning %q", err, tc.mention)
			}
		})
	}
}

// TestDeploymentHash: the hash changes with values and options, not with
// key order.
func TestDeploymentHash(t *testing.T) {
	parse := func(s string) *ProviderConfiguration {
		cfg, err := ParseConfig(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	a := deploymentHash("d", parse(`{"name":"r","namespace":"n","chart":{"ref":"x"},"values":{"a":1,"b":2}}`), nil)
	b := deploymentHash("d", parse(`{"name":"r","namespace":"n","chart":{"ref":"x"},"values":{"b":2,"a":1}}`), nil)
	c := deploymentHash("d", parse(`{"name":"r","namespace":"n","chart":{"ref":"x"},"values":{"a":2,"b":2}}`), nil)
	e := deploymentHash("e", parse(`{"name":"r","namespace":"n","chart":{"ref":"x"},"values":{"a":1,"b":2}}`), nil)
	if a != b || a == c || a == e {
		t.Fatalf("hashes a=%s b=%s c=%s e=%s: want a==b, a!=c, a!=e", a, b, c, e)
	}
}

// TestValues_BigIntegers: values keep Helm's float64 for numbers, but an
// integer a float64 would round reaches the chart with every digit.
func TestValues_BigIntegers(t *testing.T) {
	cfg, err := ParseConfig(json.RawMessage(`{"name":"r","namespace":"n","chart":{"ref":"x"},
		"values":{"small":3,"half":0.5,"big":9007199254740993,"huge":18446744073709551617,"ids":[-9007199254740993]}}`))
	if err != nil {
		t.Fatal(err)
	}
	v := cfg.values()
	if v["small"] != float64(3) || v["half"] != 0.5 {
		t.Errorf("small and half: %T %v, %T %v, want float64 as Helm reads values", v["small"], v["small"], v["half"], v["half"])
	}
	ch := &chart.Chart{Metadata: &chart.Metadata{Name: "c", Version: "0.1.0", APIVersion: chart.APIVersionV2},
		Templates: []*chart.File{{Name: "templates/cm.yaml", Data: []byte(
			"big={{ .Values.big }} huge={{ .Values.huge }} id={{ index .Values.ids 0 }} small={{ .Values.small }} json={{ toJson .Values }}")}}}
	vals, err := chartutil.ToRenderValues(ch, v, chartutil.ReleaseOptions{Name: "r", Namespace: "n"}, chartutil.DefaultCapabilities)
	if err != nil {
		t.Fatal(err)
	}
	out, err := engine.Render(ch, vals)
	if err != nil {
		t.Fatal(err)
	}
	want := `big=9007199254740993 huge=18446744073709551617 id=-9007199254740993 small=3 ` +
		`json={"big":9007199254740993,"half":0.5,"huge":18446744073709551617,"ids":[-9007199254740993],"small":3}`
	if got := out["c/templates/cm.yaml"]; got != want {
		t.Errorf("rendered\n%s\nwant\n%s", got, want)
	}
}

// TestConfigWarnings_UnknownFields: every field of a Helm configuration
// that neither Landscaper's Helm deployer nor the provider declares is a
// plan warning naming its path, including options Landscaper does not
// hand to Helm (uninstall.atomic); the values and the opaque parts of the
// chart source are not fields.
func TestConfigWarnings_UnknownFields(t *testing.T) {
	cfg := `{"name":"r","namespace":"n","chart":{"ref":"x","refs":"y"},"values":{"anything":1},
		"helmDeploymentConfig":{"install":{"takeOwnership":true,"dryRun":true},"uninstall":{"atomic":true,"wait":true}},
		"readinessChecks":{"custom":[{"name":"c","timeout":"1m","resourceSelector":[{"apiVersion":"v1","kind":"Pod","name":"p"}],"requirements":[{"jsonPath":".a","operator":"==","values":[{"value":1,"extra":2}]}]}]}}`
	got := (&Deployer{}).ConfigWarnings(json.RawMessage(cfg))
	var paths []string
	for _, w := range got {
		path, _, _ := strings.Cut(w, ": ")
		paths = append(paths, path)
		if !strings.Contains(w, "unknown field of the Helm deployer's configuration, ignored") {
			t.Errorf("warning %q does not say what the field is and that it is ignored", w)
		}
	}
	want := []string{"config.chart.refs", "config.helmDeploymentConfig.install.dryRun", "config.helmDeploymentConfig.uninstall.atomic",
		"config.readinessChecks.custom[0].requirements[0].values[0].extra", "config.readinessChecks.custom[0].timeout"}
	if strings.Join(paths, " ") != strings.Join(want, " ") {
		t.Fatalf("warnings for %v, want %v (all: %q)", paths, want, got)
	}
}
