package shared

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// InstallationModel is landscaper_installation as Terraform holds it.
type InstallationModel struct {
	ID                     types.String   `tfsdk:"id"`
	Name                   types.String   `tfsdk:"name"`
	Namespace              types.String   `tfsdk:"namespace"`
	Blueprint              types.Object   `tfsdk:"blueprint"`
	ComponentDescriptor    types.Object   `tfsdk:"component_descriptor"`
	Context                types.String   `tfsdk:"context"`
	Manifest               types.String   `tfsdk:"manifest"`
	ManifestObjects        types.String   `tfsdk:"manifest_objects"`
	Imports                types.Object   `tfsdk:"imports"`
	ImportDataMappings     types.Dynamic  `tfsdk:"import_data_mappings"`
	ExportDataMappings     types.Dynamic  `tfsdk:"export_data_mappings"`
	DeleteWithoutUninstall types.Bool     `tfsdk:"delete_without_uninstall"`
	Timeouts               timeouts.Value `tfsdk:"timeouts"`
	BlueprintDigest        types.String   `tfsdk:"blueprint_digest"`
	ComponentDigests       types.Map      `tfsdk:"component_digests"`
	Phase                  types.String   `tfsdk:"phase"`
	JobID                  types.String   `tfsdk:"job_id"`
	JobIDFinished          types.String   `tfsdk:"job_id_finished"`
	Exports                types.Dynamic  `tfsdk:"exports"`
	SensitiveExports       types.Set      `tfsdk:"sensitive_exports"`
	SensitiveExportValues  types.Dynamic  `tfsdk:"sensitive_export_values"`
	TargetExports          types.Map      `tfsdk:"target_exports"`
	ExportObjects          types.String   `tfsdk:"export_objects"`
	DeployItems            types.Map      `tfsdk:"deploy_items"`
	DeployItemErrors       types.Map      `tfsdk:"deploy_item_errors"`
	PlanDiff               types.String   `tfsdk:"plan_diff"`
	DeployItemObjects      types.String   `tfsdk:"deploy_item_objects"`
	ReconcileKey           types.String   `tfsdk:"reconcile_key"`

	// installation_provider_targets.go
	ProviderTargets          types.Map `tfsdk:"provider_targets"`
	ProviderTargetReferences types.Map `tfsdk:"provider_target_references"`
}

type blueprintSourceModel struct {
	Path   types.String `tfsdk:"path"`
	Inline types.Map    `tfsdk:"inline"`
	Ref    types.Object `tfsdk:"ref"`
}

type blueprintRefModel struct {
	ResourceName types.String `tfsdk:"resource_name"`
}

type componentSourceModel struct {
	Path   types.String `tfsdk:"path"`
	Inline types.String `tfsdk:"inline"`
	Ref    types.Object `tfsdk:"ref"`
}

type ImportsModel struct {
	Data        types.Dynamic `tfsdk:"data"`
	Targets     types.Map     `tfsdk:"targets"`
	TargetLists types.Map     `tfsdk:"target_lists"`
	TargetMaps  types.Map     `tfsdk:"target_maps"`
	Secrets     types.Map     `tfsdk:"secrets"`
	ConfigMaps  types.Map     `tfsdk:"config_maps"`
	// Write-only (installation_schema_writeonly.go).
	DataWO        types.Dynamic `tfsdk:"data_wo"`
	DataWOVersion types.Int64   `tfsdk:"data_wo_version"`
}

type ObjectRefModel struct {
	Name      types.String `tfsdk:"name"`
	Namespace types.String `tfsdk:"namespace"`
	Key       types.String `tfsdk:"key"`
}

// SetDeployItems records rows as deploy_items (item path → config_hash)
// and deploy_item_errors (item path → "<phase>: <why>" for the items that
// did not succeed). Two flat maps instead of a list of objects: Terraform
// and the plugin framework both work per value of a resource, and an
// object of eight attributes per item made 1,000 items 9,000 values,
// walked some thirty times per plan. hashKnown false plans every
// config_hash as known after apply (no config_hash key yet).
func (m *InstallationModel) SetDeployItems(rows []DeployItemRow, hashKnown bool, diags *diag.Diagnostics) {
	hashes := make(map[string]attr.Value, len(rows))
	failed := map[string]attr.Value{}
	for _, r := range rows {
		hash := types.StringUnknown()
		if hashKnown {
			hash = types.StringValue(r.ConfigHash)
		}
		hashes[r.Path()] = hash
		if e := r.ErrorText(); e != "" {
			failed[r.Path()] = types.StringValue(e)
		}
	}
	var d diag.Diagnostics
	m.DeployItems, d = types.MapValue(types.StringType, hashes)
	diags.Append(d...)
	m.DeployItemErrors, d = types.MapValue(types.StringType, failed)
	diags.Append(d...)
}

// SetDeployItemsUnknown plans deploy_items and deploy_item_errors as
// known after apply.
func (m *InstallationModel) SetDeployItemsUnknown() {
	m.DeployItems = types.MapUnknown(types.StringType)
	m.DeployItemErrors = types.MapUnknown(types.StringType)
}
