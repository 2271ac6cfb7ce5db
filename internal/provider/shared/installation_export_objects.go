package shared

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	dsschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/api"
	"github.com/landscaper-terraform/terraform-provider-landscaper/internal/landscaperyaml"
)

// Installation manifests that chain through DataObjects: Landscaper writes
// a root's exports into the DataObjects and Targets its spec.exports name,
// and the next root imports them. export_objects are those objects, for
// the next installation's manifest_objects; the reference gives Terraform
// the order (landscaperyaml.ExportObjects, and Stages for the
// landscaper_manifests data source).

// exportObjectsAttribute is landscaper_installation's export_objects.
func exportObjectsAttribute() schema.Attribute {
	return schema.StringAttribute{Computed: true, Sensitive: true,
		MarkdownDescription: "For an installation given as a `manifest`: the DataObjects and Targets its " +
			"`spec.exports` write in Landscaper (named by their `dataRef` / `target` in the installation's namespace, " +
			"with the export values), as one YAML stream. Add it to the `manifest_objects` of an installation whose " +
			"manifest imports them: the reference also makes Terraform apply this installation first. Sensitive, as " +
			"Targets hold credentials; null for the HCL form."}
}

// PlannedExportObjects is what a plan that re-runs the job knows of
// export_objects: nothing for a manifest (the exports come after apply),
// null for the HCL form.
func PlannedExportObjects(m InstallationModel) types.String {
	if m.Manifest.IsNull() {
		return types.StringNull()
	}
	return types.StringUnknown()
}

// ExportObjectsOf computes export_objects from m's manifest and its
// recorded exports (exports, sensitive_export_values, target_exports).
// Null for the HCL form or when they cannot be read.
func ExportObjectsOf(ctx context.Context, m InstallationModel) types.String {
	if m.Manifest.IsNull() || m.Manifest.IsUnknown() {
		return types.StringNull()
	}
	manifest, err := landscaperyaml.Parse("manifest", m.Manifest.ValueString())
	if err != nil {
		return types.StringNull()
	}
	data := map[string]any{}
	for _, v := range []types.Dynamic{m.Exports, m.SensitiveExportValues} {
		g, err := GoValue(ctx, v.UnderlyingValue())
		if err != nil {
			return types.StringNull()
		}
		if obj, ok := g.(map[string]any); ok {
			for k, x := range obj {
				data[k] = x
			}
		}
	}
	targets := map[string]api.Target{}
	if !m.TargetExports.IsNull() && !m.TargetExports.IsUnknown() {
		var raw map[string]string
		if m.TargetExports.ElementsAs(ctx, &raw, false).HasError() {
			return types.StringNull()
		}
		for name, s := range raw {
			var t api.Target
			if json.Unmarshal([]byte(s), &t) == nil {
				targets[name] = t
			}
		}
	}
	ns := m.Namespace.ValueString()
	if ns == "" {
		ns = "default"
	}
	out, err := landscaperyaml.ExportObjects(manifest, ns, data, targets)
	if err != nil {
		return types.StringNull()
	}
	return types.StringValue(out)
}

// BackfillExportObjects sets export_objects of a state written before the
// attribute existed; true when it changed the state.
func BackfillExportObjects(ctx context.Context, m *InstallationModel) bool {
	if !m.ExportObjects.IsNull() || m.Manifest.IsNull() || m.Phase.IsNull() {
		return false
	}
	m.ExportObjects = ExportObjectsOf(ctx, *m)
	return !m.ExportObjects.IsNull()
}

// StagesAttribute is landscaper_manifests' stages.
func StagesAttribute() dsschema.Attribute {
	return dsschema.ListAttribute{Computed: true, ElementType: types.ListType{ElemType: types.StringType},
		MarkdownDescription: "The Installations' names in the order their exports feed each other's imports: the first " +
			"stage imports no DataObject or Target another Installation of `yaml` exports, each later stage only what earlier " +
			"stages export (as `kubectl apply -f dir/` of chained root Installations relies on). One `landscaper_installation` " +
			"block per stage, each adding the earlier stages' `export_objects` to its `manifest_objects`, applies them in " +
			"that order. Two Installations exporting the same object, or a cycle, is an error."}
}

// ManifestStages is landscaperyaml.Stages as a list of lists.
func ManifestStages(set *landscaperyaml.Set) (types.List, error) {
	stages, err := landscaperyaml.Stages(set)
	inner := types.ListType{ElemType: types.StringType}
	if err != nil {
		return types.ListNull(inner), err
	}
	elems := make([]attr.Value, len(stages))
	for i, stage := range stages {
		names := make([]attr.Value, len(stage))
		for j, n := range stage {
			names[j] = types.StringValue(n)
		}
		elems[i] = types.ListValueMust(types.StringType, names)
	}
	return types.ListValueMust(inner, elems), nil
}
