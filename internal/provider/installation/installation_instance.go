package installation

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/deployer"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/provider/shared"
)

// instanceKey is the private-state key of the installation instance: a
// UUID made when Terraform creates the resource instance and kept until
// it is destroyed. Deployers stamp it on everything they deploy, and a
// destroy leaves what a newer instance of the same installation has
// adopted (create_before_destroy, an apply after a lost state).
const instanceKey = "installation_instance"

// newInstance is the ID of a new resource instance; newer instances sort
// after older ones (deployer.AdoptedBy).
func newInstance() string { return deployer.NewInstance() }

// recordedInstance reads the instance from private state; "" when the
// resource was created before instances were recorded.
func recordedInstance(ctx context.Context, private shared.PrivateGetter, diags *diag.Diagnostics) string {
	b, d := private.GetKey(ctx, instanceKey)
	diags.Append(d...)
	var id string
	if len(b) > 0 && json.Unmarshal(b, &id) != nil {
		return ""
	}
	return id
}

// recordInstance writes the instance into private state.
func recordInstance(ctx context.Context, private shared.PrivateSetter, id string, diags *diag.Diagnostics) {
	b, _ := json.Marshal(id) // a string always encodes
	diags.Append(private.SetKey(ctx, instanceKey, b)...)
}
