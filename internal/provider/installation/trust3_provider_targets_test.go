package installation

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// A record planted in the dev cluster's inventory names provider_targets
// { cluster = "prod" }: the state an import or `terraform query
// -generate-config-out` fills keeps only the entries whose clusters hold
// the installation's records, so the generated configuration cannot make
// the next apply deploy through the prod kubeconfig (issue 32, suspicion c).
func TestProviderTargetsFoundIn_PlantedRecordChoosesNoOtherEntry(t *testing.T) {
	m := shared.InstallationModel{ProviderTargets: types.MapValueMust(types.StringType, map[string]attr.Value{
		"cluster": types.StringValue("prod"), "local": types.StringValue("dev"),
	})}
	got, dropped := providerTargetsFoundIn(m, []string{"dev"})
	if els := got.ProviderTargets.Elements(); len(els) != 1 || els["local"] == nil {
		t.Errorf("provider_targets = %v, want only local = dev", got.ProviderTargets)
	}
	if len(dropped) != 1 || !strings.Contains(dropped[0], `cluster = "prod"`) {
		t.Errorf("dropped = %v, want the prod entry named", dropped)
	}
	// An installation found in both clusters keeps both.
	if got, dropped := providerTargetsFoundIn(m, []string{"dev", "prod"}); len(dropped) != 0 || len(got.ProviderTargets.Elements()) != 2 {
		t.Errorf("found in both: provider_targets = %v, dropped %v", got.ProviderTargets, dropped)
	}
	// None found: the attribute is null, not an empty map.
	if got, _ := providerTargetsFoundIn(m, nil); !got.ProviderTargets.IsNull() {
		t.Errorf("found nowhere: provider_targets = %v, want null", got.ProviderTargets)
	}
}
