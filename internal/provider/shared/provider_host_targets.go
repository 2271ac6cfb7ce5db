package shared

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
)

// Which target imports are the user's own (docs/guides/security.md): a
// kubeconfig that is not may not run programs, read files or use a proxy
// on the machine running Terraform (target.Pool's allow-list).
//
//   - A Target written in the configuration is the user's: the HCL form's
//     imports.targets, target_lists and target_maps, and the Target
//     documents of manifest_objects.
//   - A Target labeled as exported by an installation
//     (data.landscaper.gardener.cloud/sourceType=export, or
//     .../source=Inst.<name>) is not, wherever it was copied to: a
//     blueprint wrote its config. Only allow_exec_in_blueprint_targets
//     lets it use what the allow-list refuses.
//   - A Target read from the host cluster (a manifest's Target that
//     manifest_objects lacks, every Target of a migration) is not,
//     unless trusted_host_targets names it ("<namespace>/<name>"):
//     whoever may write Targets there is not necessarily who runs
//     Terraform.

const trustedHostTargetsAttr = "trusted_host_targets"

func TrustedHostTargetsAttribute(attrs map[string]schema.Attribute) {
	attrs[trustedHostTargetsAttr] = schema.ListAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: "Landscaper Targets read from the host cluster whose kubeconfigs are trusted like the " +
			"configuration's own, as `\"<namespace>/<name>\"`: they may use `exec`, `auth-provider`, credential files and " +
			"`proxy-url`. Targets are read from the host cluster for an installation's `manifest` (those `manifest_objects` " +
			"does not hold) and by a migration (`terraform import` of a Landscaper Installation). Any other such Target gets " +
			"the allow-list of blueprint targets (see `allow_exec_in_blueprint_targets`), and so does a Target labeled as " +
			"exported by an installation (`data.landscaper.gardener.cloud/sourceType: export`) even when named here."}
}

// TrustedHostTargets reads trusted_host_targets; unknown values are left
// out (they are known at apply).
func TrustedHostTargets(ctx context.Context, l types.List) (map[string]bool, diag.Diagnostics) {
	var diags diag.Diagnostics
	if l.IsNull() || l.IsUnknown() {
		return nil, diags
	}
	var raw []types.String
	diags.Append(l.ElementsAs(ctx, &raw, false)...)
	out := map[string]bool{}
	for i, v := range raw {
		if v.IsNull() || v.IsUnknown() {
			continue
		}
		ns, name, ok := strings.Cut(v.ValueString(), "/")
		if !ok || ns == "" || name == "" || strings.Contains(name, "/") {
			AddError(&diags, nil, "Invalid Target Name", AttrMsg(path.Root(trustedHostTargetsAttr).AtListIndex(i), fmt.Sprintf("%q is not \"<namespace>/<name>\" of a Landscaper Target", v.ValueString())))
			continue
		}
		out[v.ValueString()] = true
	}
	return out, diags
}

// Labels Landscaper puts on a Target an installation exported.
const (
	lsSourceTypeLabel = "data.landscaper.gardener.cloud/sourceType"
	lsSourceLabel     = "data.landscaper.gardener.cloud/source"
)

// exportedByInstallation reports whether t carries Landscaper's labels
// of a Target an installation exported.
func exportedByInstallation(t api.Target) bool {
	return t.Metadata.Labels[lsSourceTypeLabel] == "export" || strings.HasPrefix(t.Metadata.Labels[lsSourceLabel], "Inst.")
}

// writtenTargets returns whether a target import of m (an installation
// in either form) was written in the configuration: every target of the
// HCL form; of a manifest, those manifest_objects holds, the others were
// read from the host cluster. A manifest_objects that does not parse
// holds none.
func writtenTargets(m InstallationModel) func(api.Target) bool {
	if m.Manifest.IsNull() {
		return func(api.Target) bool { return true }
	}
	namespace := m.Namespace.ValueString()
	if namespace == "" {
		namespace = "default"
	}
	written := map[string]bool{}
	if !m.ManifestObjects.IsNull() && !m.ManifestObjects.IsUnknown() {
		if objects, err := landscaperyaml.Parse("manifest_objects", m.ManifestObjects.ValueString()); err == nil {
			for _, d := range objects.Documents(landscaperyaml.KindTarget) {
				if d.Namespace == "" || d.Namespace == namespace {
					written[d.Name] = true
				}
			}
		}
	}
	return func(t api.Target) bool {
		return (t.Metadata.Namespace == "" || t.Metadata.Namespace == namespace) && written[t.Metadata.Name] ||
			IsProviderTarget(m, t)
	}
}

// targetOrigin says why t is not trusted and how to trust it; trusted is
// true when it is the user's own.
func (s *Security) targetOrigin(t api.Target, written bool) (trusted bool, origin, remedy string) {
	name := t.Metadata.Namespace + "/" + t.Metadata.Name
	switch {
	case exportedByInstallation(t):
		return false, fmt.Sprintf("Target %s is labeled as exported by installation %q (%s=%s): a blueprint wrote it",
				name, strings.TrimPrefix(t.Metadata.Labels[lsSourceLabel], "Inst."), lsSourceTypeLabel, t.Metadata.Labels[lsSourceTypeLabel]),
			"set allow_exec_in_blueprint_targets = true in the provider block to trust blueprint targets"
	case written, s.trustedHostTargets[name]:
		return true, "", ""
	}
	return false, fmt.Sprintf("Target %s was read from the host cluster, not written in this configuration", name),
		fmt.Sprintf("add %q to trusted_host_targets in the provider block to trust it", name)
}
