package provider

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/targetresource"
)

// TestBuildTarget_FromProvider: the Target of a kubeconfig_from_provider
// target carries the reference and no config at all.
func TestBuildTarget_FromProvider(t *testing.T) {
	m := targetresource.TargetModel{Name: types.StringValue("prod"), Type: types.StringValue(api.KubernetesClusterTargetType),
		Kubeconfig: types.StringNull(), Config: types.StringNull(), FromProvider: types.BoolValue(true)}
	raw, ok := targetresource.BuildTarget(m, "ref-1")
	if !ok {
		t.Fatal("buildTarget: not known")
	}
	var tg api.Target
	if err := json.Unmarshal([]byte(raw), &tg); err != nil {
		t.Fatal(err)
	}
	if tg.Metadata.Annotations[api.KubeconfigFromProviderAnnotation] != "ref-1" || len(tg.Spec.Config) != 0 || tg.Metadata.Name != "prod" {
		t.Errorf("target = %s, want name prod, the reference and no config", raw)
	}

	m.Type = types.StringValue("example.com/vault")
	if _, err := targetresource.TargetConfig(m); err == nil || !strings.Contains(err.Error(), "kubeconfig_from_provider") {
		t.Errorf("kubeconfig_from_provider with type example.com/vault: %v, want an error naming the attribute", err)
	}
}

// TestProviderKubeconfigs_Invalid: a malformed entry is an error naming its
// map key (what the message may quote is redact.Kubeconfig's, tested there).
func TestProviderKubeconfigs_Invalid(t *testing.T) {
	m := types.MapValueMust(types.StringType, map[string]attr.Value{"prod": types.StringValue("users: not-a-list")})
	got, diags := shared.ProviderKubeconfigs(context.Background(), m)
	if !diags.HasError() || len(got) != 0 {
		t.Fatalf("providerKubeconfigs(invalid) = %v, %v; want an error", got, diags)
	}
	d := diags.Errors()[0]
	if !strings.Contains(d.Detail(), "target_kubeconfigs[prod]") {
		t.Errorf("diagnostic %q: want it to name target_kubeconfigs[prod]", d.Detail())
	}
}
