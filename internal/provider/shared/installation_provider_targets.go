package shared

import (
	"context"
	"fmt"
	"sort"

	"github.com/google/uuid"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
)

// provider_targets names target imports whose kubeconfig is an entry of
// the provider block's target_kubeconfigs, as landscaper_target's
// kubeconfig_from_provider does, but without a resource in between: the
// configuration holds names only, no credential and no reference. So an
// installation imported into another workspace (`terraform query
// -generate-config-out`, an import block) plans no change: the generated
// configuration writes provider_targets as the inventory records it (a
// sensitive attribute would be left null for the user to fill), and no
// value carries a sensitivity mark of the configuration that the imported
// state could lack (Terraform plans a marks-only update then).
//
// The Target the provider builds for each carries a reference the pool
// honours (target.Pool.AllowProviderKubeconfig), random so that a Target
// a blueprint makes up cannot borrow the kubeconfig.
// provider_target_references keeps it per import name: the same from one
// plan to the next (the imports the last job recorded stay equal), and
// the inventory keeps it for an import.

// providerTargetAttributes are the resource's attributes of this file.
func providerTargetAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"provider_targets": schema.MapAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "Target imports whose kubeconfig is the provider block's `target_kubeconfigs` entry: import name → " +
				"entry name, e.g. `{ cluster = \"cluster\" }`. Like `imports.targets` with a `landscaper_target` of " +
				"`kubeconfig_from_provider = true`, but the configuration holds names only: nothing sensitive, so an installation " +
				"imported into another workspace (`terraform query -generate-config-out`, an `import` block) plans no change. " +
				"An import name may not also be in `imports.targets`."},
		"provider_target_references": schema.MapAttribute{Computed: true, Sensitive: true, ElementType: types.StringType,
			MarkdownDescription: "The reference of each `provider_targets` Target (import name → random value), kept from one apply " +
				"to the next: only Targets of this configuration may use the provider block's kubeconfigs, not ones a blueprint makes up."},
	}
}

// WithProviderTargetReferences is plan with provider_target_references
// set: the reference in state for each import name, and for a new name a
// new one when draw is set (Create, Update), else unknown: a plan cannot
// draw one, Terraform plans again at apply and the value would differ.
// Unknown while provider_targets is.
func WithProviderTargetReferences(ctx context.Context, plan InstallationModel, state *InstallationModel, draw bool) InstallationModel {
	if plan.ProviderTargets.IsUnknown() {
		plan.ProviderTargetReferences = types.MapUnknown(types.StringType)
		return plan
	}
	if plan.ProviderTargets.IsNull() {
		plan.ProviderTargetReferences = types.MapNull(types.StringType)
		return plan
	}
	prior := map[string]string{}
	if state != nil && !state.ProviderTargetReferences.IsNull() && !state.ProviderTargetReferences.IsUnknown() {
		_ = state.ProviderTargetReferences.ElementsAs(ctx, &prior, false) // a map of strings
	}
	refs := map[string]string{}
	for name := range plan.ProviderTargets.Elements() {
		switch ref := prior[name]; {
		case ref != "":
			refs[name] = ref
		case draw:
			refs[name] = uuid.NewString()
		default:
			plan.ProviderTargetReferences = types.MapUnknown(types.StringType)
			return plan
		}
	}
	plan.ProviderTargetReferences, _ = types.MapValueFrom(ctx, types.StringType, refs) // strings
	return plan
}

// ProviderTargets adds the Targets of provider_targets to in.
func ProviderTargets(ctx context.Context, m InstallationModel, in map[string]api.Target) error {
	var names, refs map[string]types.String
	if err := mapElements(ctx, m.ProviderTargets, &names); err != nil {
		return err
	}
	if len(names) == 0 {
		return nil
	}
	if err := mapElements(ctx, m.ProviderTargetReferences, &refs); err != nil {
		return err
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, importName := range keys {
		entry, ref := names[importName], refs[importName]
		if entry.IsUnknown() || ref.IsUnknown() {
			return ErrUnknownValue
		}
		p := path.Root("provider_targets").AtMapKey(importName)
		if entry.IsNull() || entry.ValueString() == "" {
			return AttrMsg(p, "provider_targets: the name of a target_kubeconfigs entry is missing")
		}
		if ref.IsNull() || ref.ValueString() == "" {
			return AttrMsg(p, fmt.Sprintf("provider_targets[%q] has no reference (provider_target_references); plan again", importName))
		}
		t := api.NewTarget(entry.ValueString(), "", api.KubernetesClusterTargetType, nil)
		t.Metadata.Annotations = map[string]string{api.KubeconfigFromProviderAnnotation: ref.ValueString()}
		in[importName] = t
	}
	return nil
}

// IsProviderTarget says whether t is a Target of m's provider_targets:
// written in the configuration also when a manifest gives the others.
func IsProviderTarget(m InstallationModel, t api.Target) bool {
	ref := t.Metadata.Annotations[api.KubeconfigFromProviderAnnotation]
	if ref == "" {
		return false
	}
	names, refs := m.ProviderTargets.Elements(), m.ProviderTargetReferences.Elements()
	for importName, r := range refs {
		rs, ok := r.(types.String)
		ns, _ := names[importName].(types.String)
		if ok && rs.ValueString() == ref && ns.ValueString() == t.Metadata.Name {
			return true
		}
	}
	return false
}
