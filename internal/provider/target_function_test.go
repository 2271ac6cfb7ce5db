package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/functions"
)

// runDecodeTarget calls the function as Terraform does, through Run.
func runDecodeTarget(t *testing.T, arg string) (types.Object, *function.FuncError) {
	t.Helper()
	ctx := context.Background()
	resp := function.RunResponse{Result: function.NewResultData(types.ObjectUnknown(functions.DecodedTargetAttrTypes))}
	functions.NewDecodeTargetFunction().Run(ctx, function.RunRequest{
		Arguments: function.NewArgumentsData([]attr.Value{types.StringValue(arg)}),
	}, &resp)
	if resp.Error != nil {
		return types.Object{}, resp.Error
	}
	obj, ok := resp.Result.Value().(types.Object)
	if !ok {
		t.Fatalf("result is %T, want types.Object", resp.Result.Value())
	}
	return obj, nil
}

func targetJSON(t *testing.T, name, typ string, config any) string {
	t.Helper()
	cfg, err := json.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(api.NewTarget(name, "", typ, cfg))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDecodeTargetFunction_KubernetesCluster proves a kubernetes-cluster
// target yields its kubeconfig, and the whole config as an object.
func TestDecodeTargetFunction_KubernetesCluster(t *testing.T) {
	obj, ferr := runDecodeTarget(t, targetJSON(t, "cluster", api.KubernetesClusterTargetType, map[string]any{"kubeconfig": "apiVersion: v1\n"}))
	if ferr != nil {
		t.Fatal(ferr)
	}
	a := obj.Attributes()
	if got := a["name"].(types.String).ValueString(); got != "cluster" {
		t.Errorf("name = %q", got)
	}
	if got := a["type"].(types.String).ValueString(); got != api.KubernetesClusterTargetType {
		t.Errorf("type = %q", got)
	}
	if got := a["kubeconfig"].(types.String).ValueString(); got != "apiVersion: v1\n" {
		t.Errorf("kubeconfig = %q", got)
	}
	cfg, ok := a["config"].(types.Dynamic).UnderlyingValue().(types.Object)
	if !ok || cfg.Attributes()["kubeconfig"].(types.String).ValueString() != "apiVersion: v1\n" {
		t.Errorf("config = %v, want an object with the kubeconfig", a["config"])
	}
}

// TestDecodeTargetFunction_OtherTypes proves that only kubernetes-cluster
// targets with a kubeconfig string have a kubeconfig; config is always decoded.
func TestDecodeTargetFunction_OtherTypes(t *testing.T) {
	for name, tc := range map[string]struct {
		typ    string
		config any
	}{
		"custom type":          {"example.com/vault", map[string]any{"address": "https://vault", "kubeconfig": "not one"}},
		"secretRef kubeconfig": {api.KubernetesClusterTargetType, map[string]any{"kubeconfig": map[string]any{"secretRef": map[string]any{"name": "s"}}}},
	} {
		t.Run(name, func(t *testing.T) {
			obj, ferr := runDecodeTarget(t, targetJSON(t, "x", tc.typ, tc.config))
			if ferr != nil {
				t.Fatal(ferr)
			}
			a := obj.Attributes()
			if !a["kubeconfig"].IsNull() {
				t.Errorf("kubeconfig = %v, want null", a["kubeconfig"])
			}
			if _, ok := a["config"].(types.Dynamic).UnderlyingValue().(types.Object); !ok {
				t.Errorf("config = %v, want an object", a["config"])
			}
		})
	}
}

// TestDecodeTargetFunction_NoConfig proves a target without spec.config
// decodes with config and kubeconfig null.
func TestDecodeTargetFunction_NoConfig(t *testing.T) {
	obj, ferr := runDecodeTarget(t, `{"kind":"Target","metadata":{"name":"n"},"spec":{"type":"example.com/none"}}`)
	if ferr != nil {
		t.Fatal(ferr)
	}
	if a := obj.Attributes(); !a["config"].IsNull() || !a["kubeconfig"].IsNull() {
		t.Errorf("config = %v, kubeconfig = %v, want both null", a["config"], a["kubeconfig"])
	}
}

// TestDecodeTargetFunction_Errors proves bad input is an error on the
// argument (index 0, which the CLI names) and never quotes the input (it
// holds credentials).
func TestDecodeTargetFunction_Errors(t *testing.T) {
	for name, tc := range map[string]struct {
		arg  string
		want string
	}{
		"not JSON":   {`s3cr3t-token`, "not a Target object JSON (syntax error at offset 1)"},
		"JSON array": {`["s3cr3t"]`, "not a Target object JSON (the document must not be a JSON array)"},
		"no type":    {`{"kind":"Target","spec":{"config":{"token":"s3cr3t"}}}`, "has no spec.type"},
		"wrong kind": {`{"kind":"Secret","spec":{"type":"t","config":{"token":"s3cr3t"}}}`, `kind is "Secret", not "Target"`},
		"empty":      {``, "not a Target object JSON"},
	} {
		t.Run(name, func(t *testing.T) {
			_, ferr := runDecodeTarget(t, tc.arg)
			if ferr == nil {
				t.Fatal("no error")
			}
			if ferr.FunctionArgument == nil || *ferr.FunctionArgument != 0 {
				t.Errorf("error is not on argument 0: %+v", ferr)
			}
			if !strings.Contains(ferr.Text, tc.want) {
				t.Errorf("error = %q, want it to contain %q", ferr.Text, tc.want)
			}
			if strings.Contains(ferr.Text, "s3cr3t") {
				t.Errorf("error quotes the input: %q", ferr.Text)
			}
		})
	}
}

// decodeTargetConfig is HCL calling the function on a landscaper_target
// (sensitive) and on a literal Target JSON.
const decodeTargetConfig = `
resource "landscaper_target" "vault" {
  name   = "vault"
  type   = "example.com/vault"
  config = jsonencode({ address = "https://vault.example" })
}

locals {
  literal = jsonencode({
    apiVersion = "landscaper.gardener.cloud/v1alpha1"
    kind       = "Target"
    metadata   = { name = "cluster" }
    spec       = { type = "landscaper.gardener.cloud/kubernetes-cluster", config = { kubeconfig = "apiVersion: v1\n" } }
  })
}

output "vault_address" {
  value = nonsensitive(provider::landscaper::decode_target(landscaper_target.vault.target).config.address)
}

output "vault_kubeconfig_is_null" {
  value = nonsensitive(provider::landscaper::decode_target(landscaper_target.vault.target).kubeconfig == null)
}

output "cluster" {
  value = provider::landscaper::decode_target(local.literal)
}
`

// Provider-defined functions need Terraform >= 1.8: under the Terraform
// 1.5 CLI this test is skipped by the harness; under the current Terraform
// and OpenTofu (LANDSCAPER_TEST_CLI=terraform-current, tofu) it runs.
func TestAccDecodeTargetFunction(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testProviders,
		TerraformVersionChecks:   []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)},
		Steps: []resource.TestStep{
			{
				// Decoding a sensitive target gives a sensitive result: credentials
				// never reach an output unmarked.
				Config: decodeTargetConfig + `
output "leak" {
  value = provider::landscaper::decode_target(landscaper_target.vault.target).config
}`,
				ExpectError: regexp.MustCompile(`Output refers to sensitive values`),
			},
			{
				// A malformed Target is an error on the argument, at plan time.
				Config:      fmt.Sprintf("output \"bad\" {\n  value = provider::landscaper::decode_target(%q)\n}\n", `{"spec":{}}`),
				ExpectError: regexp.MustCompile(`Invalid value for "target_json" parameter:\s+the\s+Target\s+object\s+has\s+no\s+spec\.type`),
			},
			{
				Config: decodeTargetConfig,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("vault_address", knownvalue.StringExact("https://vault.example")),
					statecheck.ExpectKnownOutputValue("vault_kubeconfig_is_null", knownvalue.Bool(true)),
					statecheck.ExpectKnownOutputValue("cluster", knownvalue.ObjectExact(map[string]knownvalue.Check{
						"name":       knownvalue.StringExact("cluster"),
						"type":       knownvalue.StringExact(api.KubernetesClusterTargetType),
						"kubeconfig": knownvalue.StringExact("apiVersion: v1\n"),
						"config":     knownvalue.ObjectExact(map[string]knownvalue.Check{"kubeconfig": knownvalue.StringExact("apiVersion: v1\n")}),
					})),
				},
			},
		},
	})
}
