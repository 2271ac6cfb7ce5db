package shared

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// The timeouts of Landscaper's deployer contract, as its
// deployItemTimeouts configure them, and the progressing default a
// DeployItem's spec.timeout takes when the template sets none.

const deployItemTimeoutsAttr = "deploy_item_timeouts"

type deployItemTimeoutsModel struct {
	Pickup             types.String `tfsdk:"pickup"`
	Abort              types.String `tfsdk:"abort"`
	ProgressingDefault types.String `tfsdk:"progressing_default"`
}

// deployItemTimeouts are the parsed settings; zero is the default.
type deployItemTimeouts struct {
	pickup, abort, progressing time.Duration
}

func DeployItemTimeoutsAttribute(attrs map[string]schema.Attribute) {
	attrs[deployItemTimeoutsAttr] = schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: "Timeouts of Landscaper's deployer contract (its `deployItemTimeouts`), as Go durations (`30s`, `5m`).",
		Attributes: map[string]schema.Attribute{
			"pickup": schema.StringAttribute{Optional: true,
				MarkdownDescription: "How long a job of an external deployer (`external_deployers`) may wait until a deployer " +
					"picks it up; then the item fails with `ERR_TIMEOUT`. `none` waits without limit. Default `5m`, as Landscaper."},
			"abort": schema.StringAttribute{Optional: true,
				MarkdownDescription: "How long a deployer may take to stop once it was told to: at an interrupt (Ctrl-C, a " +
					"Terraform `timeouts` value) or when its item's timeout passed. An external deployer is asked to abort and " +
					"gets this long to end the job itself, then the provider ends it. A deployer still running then is given up " +
					"and its item fails (`AbortTimeout`). Default `30s`; Landscaper's is `5m`, but a Ctrl-C should return " +
					"promptly and Landscaper v0.98's deployers ignore the abort request anyway."},
			"progressing_default": schema.StringAttribute{Optional: true,
				MarkdownDescription: "The timeout of a deploy item whose template sets no `timeout`: how long its deployer may " +
					"work on it. Default `10m`, as Landscaper."},
		},
	}
}

// ConfigureDeployers applies deploy_item_timeouts to the engine and
// registers the external deployers.
func (d *ProviderData) ConfigureDeployers(ctx context.Context, timeouts types.Object, entries types.List) diag.Diagnostics {
	var diags diag.Diagnostics
	var m *deployItemTimeoutsModel
	if !timeouts.IsNull() && !timeouts.IsUnknown() {
		if diags.Append(timeouts.As(ctx, &m, basetypes.ObjectAsOptions{})...); diags.HasError() {
			return diags
		}
	}
	t, more := m.parse()
	diags.Append(more...)
	d.Engine.AbortTimeout, d.Engine.DefaultTimeout, d.Engine.PickupTimeout = t.abort, t.progressing, t.pickup
	diags.Append(d.handOut(ctx, entries, d.Host.Settings)...)
	return diags
}

func (m *deployItemTimeoutsModel) parse() (deployItemTimeouts, diag.Diagnostics) {
	var out deployItemTimeouts
	var diags diag.Diagnostics
	if m == nil {
		return out, diags
	}
	for _, f := range []struct {
		name     string
		value    types.String
		into     *time.Duration
		noneIs   time.Duration // 0: "none" is not allowed
		defaults time.Duration
	}{
		{"pickup", m.Pickup, &out.pickup, -1, api.DefaultPickupTimeout},
		{"abort", m.Abort, &out.abort, 0, api.DefaultAbortTimeout},
		{"progressing_default", m.ProgressingDefault, &out.progressing, 0, api.DefaultDeployItemTimeout},
	} {
		if f.value.IsNull() || f.value.IsUnknown() {
			continue
		}
		s := f.value.ValueString()
		if s == "none" && f.noneIs != 0 {
			*f.into = f.noneIs
			continue
		}
		v, err := time.ParseDuration(s)
		if err != nil || v <= 0 {
			AddError(&diags, nil, "Invalid Timeout", AttrMsg(path.Root(deployItemTimeoutsAttr).AtName(f.name), fmt.Sprintf("%s must be a positive Go duration such as %q, got %q", f.name, f.defaults.String(), s)))
			continue
		}
		*f.into = v
	}
	return out, diags
}

// DefaultJobTimeout bounds create, update and delete when `timeouts` does
// not; deploy items have their own, shorter default of 10 minutes.
const DefaultJobTimeout = 30 * time.Minute
