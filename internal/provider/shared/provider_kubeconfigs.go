package shared

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/redact"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/target"
)

// Kubeconfigs that must never be written to state or a plan file are given
// in the provider block: it is the one place Terraform evaluates at every
// plan, apply, refresh and destroy, accepts ephemeral values (Terraform >=
// 1.10, OpenTofu >= 1.11) and never persists. A write-only attribute would
// not do: Terraform hands it only to its own resource's plan and apply,
// never to the installation that deploys with it, nor to refresh or destroy.

const targetKubeconfigsAttr = "target_kubeconfigs"

func KubeconfigsAttribute(attrs map[string]schema.Attribute) {
	attrs[targetKubeconfigsAttr] = schema.MapAttribute{Optional: true, Sensitive: true, ElementType: types.StringType,
		MarkdownDescription: "Kubeconfigs by target name, for `landscaper_target`s with `kubeconfig_from_provider = true`. " +
			"They are used at every refresh, apply and destroy and are never written to state, plan files or the " +
			"installation's private state. Give them from an ephemeral value (an `ephemeral = true` variable or an " +
			"ephemeral resource, Terraform >= 1.10 / OpenTofu >= 1.11) or `file()`, so no plan file holds them either."}
}

// ProviderKubeconfigs reads and checks target_kubeconfigs; unknown values
// (not yet known at plan) are left out, so the targets using them fail at
// apply with a message naming the missing entry.
func ProviderKubeconfigs(ctx context.Context, m types.Map) (map[string]string, diag.Diagnostics) {
	var diags diag.Diagnostics
	if m.IsNull() || m.IsUnknown() {
		return nil, diags
	}
	var raw map[string]types.String
	diags.Append(m.ElementsAs(ctx, &raw, false)...)
	out := make(map[string]string, len(raw))
	for name, v := range raw {
		if v.IsNull() || v.IsUnknown() {
			continue
		}
		if _, err := clientcmd.Load([]byte(v.ValueString())); err != nil {
			// YAML errors may quote the offending line: a token.
			AddError(&diags, nil, "Invalid Kubeconfig", AttrMsg(path.Root(targetKubeconfigsAttr).AtMapKey(name), "target_kubeconfigs["+name+"] is not a valid kubeconfig: "+redact.Kubeconfig(err, v.ValueString())))
			continue
		}
		out[name] = v.ValueString()
	}
	return out, diags
}

// newSecurity returns a provider instance's security; the provider
// block's kubeconfigs are secrets to scrub from every message from the start.
func newSecurity(pool *target.Pool, sec SecuritySettings) *Security {
	s := &Security{pool: pool, limits: sec.Limits, trustedHostTargets: sec.TrustedHostTargets}
	for _, kubeconfig := range sec.TargetKubeconfigs {
		s.Secrets.KubeconfigCredentials(kubeconfig)
	}
	return s
}
