package helm

import (
	"encoding/json"
	"strings"
	"testing"

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
