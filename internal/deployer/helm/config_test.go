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
	a := deploymentHash("d", parse(`{"name":"r","namespace":"n","chart":{"ref":"x"},"values":{"a":1,"b":2}}`))
	b := deploymentHash("d", parse(`{"name":"r","namespace":"n","chart":{"ref":"x"},"values":{"b":2,"a":1}}`))
	c := deploymentHash("d", parse(`{"name":"r","namespace":"n","chart":{"ref":"x"},"values":{"a":2,"b":2}}`))
	e := deploymentHash("e", parse(`{"name":"r","namespace":"n","chart":{"ref":"x"},"values":{"a":1,"b":2}}`))
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
