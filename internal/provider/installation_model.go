package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// installationModel is landscaper_installation as Terraform holds it.
type installationModel struct {
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

type importsModel struct {
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

type objectRefModel struct {
	Name      types.String `tfsdk:"name"`
	Namespace types.String `tfsdk:"namespace"`
	Key       types.String `tfsdk:"key"`
}
