package fieldtable

// Template is the deploy item template a deploy execution renders
// (Landscaper's DeployItemSpecification).
var Template = Table{Title: "Deploy item template (`deployItems[]` of a deploy execution)", Rows: []Row{
	{Path: "name", Since: "≤ v0.5", Verdict: Honoured, How: "Unique in the execution; part of the item's path.", Tests: []string{"TestRender_RenderTimeErrors"}},
	{Path: "type", Since: "≤ v0.5", Verdict: Honoured, How: "Manifest, Helm and mock in the provider; other types through `external_deployers`, else a plan error.",
		Tests: []string{"TestRender_DeployersRejectConfigs", "TestRun_UnknownType"}},
	{Path: "target", Since: "≤ v0.5", Verdict: Honoured, How: "Resolved at plan in the installation's target imports.", Tests: []string{"TestRender_DeployItemTargets"}},
	{Path: "target.import", Since: "≤ v0.25", Verdict: Honoured, Tests: []string{"TestRender_DeployItemTargets"}},
	{Path: "target.index", Since: "≤ v0.25", Verdict: Honoured, How: "An element of a target list import (`imports.target_lists`).", Tests: []string{"TestRender_DeployItemTargets", "TestAccInstallation_targetListImport"}},
	{Path: "target.key", Since: "v0.98", Verdict: Honoured, How: "An element of a target map import.", Tests: []string{"TestRender_DeployItemTargets"}},
	{Path: "target.name", Since: "≤ v0.25", Verdict: Differs, How: "Resolved like `import` in the installation's scope: there are no Target objects in Terraform state."},
	{Path: "labels", Since: "≤ v0.5", Verdict: Differs, How: "Accepted and not used: the provider makes no DeployItem object that would carry them."},
	{Path: "config", Since: "≤ v0.5", Verdict: Honoured, How: "Checked at plan by its deployer's parser; unknown fields are plan warnings (tables above).",
		Tests: []string{"TestRender_DeployerWarnings"}},
	{Path: "dependsOn", Since: "≤ v0.5", Verdict: Honoured, How: "Order and cycles checked at plan.", Tests: []string{"TestClassifyInstall"}},
	{Path: "timeout", Since: "v0.52", Verdict: Honoured, How: "Default 10 minutes; `none` turns it off. It bounds a delete too: an object still there at its end fails the destroy (phase `DeleteFailed`, the resource kept in state) until a later destroy finds it gone.",
		Tests: []string{"TestRun_Timeout", "TestAccInstallation_destroyFailsThenFinishes"}},
	{Path: "updateOnChangeOnly", Since: "v0.43", Verdict: Honoured, How: "Unless refresh found the item drifted.", Tests: []string{"TestAccInstallation_updateOnChangeOnlyDriftRepaired", "TestDrift_UpdateOnChangeOnlyRepairedAfterMark"}},
	{Path: "onDelete", Since: "v0.56", Verdict: Honoured, How: "Known; see its field.", Tests: []string{"TestDecodeDeployItems_OnDelete"}},
	{Path: "onDelete.skipUninstallIfClusterRemoved", Since: "v0.56", Verdict: Differs,
		How: "Plan warning: Landscaper decides it with a TargetSync to the Gardener project of the target's shoot, which the provider " +
			"does not read. Use the installation's `delete_without_uninstall` when the cluster is gone.",
		Tests: []string{"TestDecodeDeployItems_OnDelete", "TestAccInstallation_deleteWithoutUninstall"}},
}}
