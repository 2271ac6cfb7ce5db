package fieldtable

const (
	helmTimeout = "Bounds Helm's own wait (default 5m), within the deploy item's timeout. Landscaper v0.152 decodes it but " +
		"gives its Helm actions the deploy item's remaining time instead."
	helmWait   = "Helm waits until the release's objects are ready; the provider's readiness checks follow either way."
	helmForce  = "Helm's `--force`: objects are replaced where an update fails."
	manifestRo = "`readinessChecks` of the manifest deployer"
)

// Helm is the Helm deployer's configuration
// (helm.deployer.landscaper.gardener.cloud/v1alpha1).
var Helm = Table{Title: "Helm deployer (`landscaper.gardener.cloud/helm`)", Rows: []Row{
	{Path: "apiVersion", Since: "≤ v0.5", Verdict: Honoured, Tests: []string{"TestConformance_HelmRelease"}},
	{Path: "kind", Since: "≤ v0.5", Verdict: Honoured, How: "Must be `ProviderConfiguration` when set."},
	{Path: "kubeconfig", Since: "≤ v0.5, removed in v0.119", Verdict: Refused, How: "Plan error: use the deploy item's target.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "updateStrategy", Since: "≤ v0.5", Verdict: Differs,
		How: "For `helmDeployment: false` only, as the manifest deployer's `updateStrategy` (which also accepts `merge` and " +
			"`mergeOverwrite`, which Landscaper's Helm deployer does not list).", Tests: []string{"TestApply_StrategiesAndOtherManagers"}},
	{Path: "readinessChecks", Since: "v0.11", Verdict: Honoured, How: "Checked after every install and upgrade.", Same: "the " + manifestRo,
		Tests: []string{"TestApply_HelmReleaseWaitsForReadiness", "TestParseConfig_Invalid"}},
	{Path: "createNamespace", Since: "v0.15", Verdict: Honoured, How: "With `helmDeployment: false` the namespace gets policy `keep`, so a destroy leaves it.",
		Tests: []string{"TestApply_ManifestModeLookupAndNamespace"}},
	{Path: "chart", Since: "≤ v0.5", Verdict: Honoured, How: "Exactly one source.", Tests: []string{"TestApply_ChartSources", "TestParseConfig_Invalid"}},
	{Path: "chart.ref", Since: "≤ v0.5", Verdict: Honoured, How: "An OCI reference, with the Context's registry pull secrets.", Tests: []string{"TestApply_ChartSources"}},
	{Path: "chart.archive", Since: "≤ v0.5", Verdict: Honoured, How: "Exactly one of `raw` and `remote`.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "chart.archive.raw", Since: "≤ v0.5", Verdict: Honoured, Tests: []string{"TestApply_ChartSources"}},
	{Path: "chart.archive.remote", Since: "≤ v0.5", Verdict: Honoured, Tests: []string{"TestApply_ChartSources"}},
	{Path: "chart.archive.remote.url", Since: "≤ v0.5", Verdict: Honoured,
		How: "With `helmChartRepoCredentials` of the Context matched by scheme, host and path (guide \"Components from OCI registries\").", Tests: []string{"TestApply_ChartSources"}},
	{Path: "chart.helmChartRepo", Since: "v0.22", Verdict: Honoured, Tests: []string{"TestApply_ChartSources", "TestLoadChart_RepositoryCredentials"}},
	{Path: "chart.helmChartRepo.helmChartRepoUrl", Since: "v0.22", Verdict: Honoured, Tests: []string{"TestApply_ChartSources"}},
	{Path: "chart.helmChartRepo.helmChartName", Since: "v0.22", Verdict: Honoured, Tests: []string{"TestApply_ChartSources"}},
	{Path: "chart.helmChartRepo.helmChartVersion", Since: "v0.22", Verdict: Honoured, Tests: []string{"TestApply_ChartSources"}},
	{Path: "chart.path", Verdict: Differs, How: "The provider's own: a chart directory or archive in the blueprint's files.", Tests: []string{"TestApply_ChartSources"}},
	{Path: "chart.fromResource", Since: "≤ v0.5", Verdict: Honoured, How: "A resource of a component version.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "chart.fromResource.ref", Since: "≤ v0.5", Verdict: Honoured, How: "A component reference, read through the installation's registry.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "chart.fromResource.inline", Since: "≤ v0.5", Verdict: Honoured, How: "An inline component descriptor.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "chart.fromResource.resourceName", Since: "≤ v0.5", Verdict: Honoured, Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "chart.resourceRef", Since: "v0.93", Verdict: Honoured, How: "A resource key (`getResourceKey`).", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "name", Since: "≤ v0.5", Verdict: Honoured, How: "The release name; required.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "namespace", Since: "≤ v0.5", Verdict: Honoured, How: "The release namespace; required.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "values", Since: "≤ v0.5", Verdict: Honoured, How: "An object; integers beyond 2^53 keep every digit.", Tests: []string{"TestApply_ExportsFromValuesAndResources", "TestValues_BigIntegers"}},
	{Path: "exportsFromManifests", Since: "≤ v0.5 (deprecated)", Verdict: Honoured, How: "Read like `exports.exports`.", Same: "`exports.exports[]` of the manifest deployer"},
	{Path: "exports", Since: "v0.12", Verdict: Honoured, How: "Without `fromResource`, `jsonPath` reads the values the chart was rendered with (`.Values.x`).",
		Same: "`exports` of the manifest deployer", Tests: []string{"TestApply_ExportsFromValuesAndResources"}},
	{Path: "helmDeployment", Since: "v0.22", Verdict: Honoured, How: "`false` renders the chart and applies it like the manifest deployer.", Tests: []string{"TestConformance_HelmManifestMode"}},
	{Path: "helmDeploymentConfig", Since: "v0.22", Verdict: Honoured, How: "The options Landscaper's Helm deployer hands to Helm; any other key is a plan warning.",
		Tests: []string{"TestConfigWarnings_UnknownFields"}},
	{Path: "helmDeploymentConfig.install", Since: "v0.22", Verdict: Honoured, Tests: []string{"TestConfigWarnings_UnknownFields"}},
	{Path: "helmDeploymentConfig.install.atomic", Since: "v0.22", Verdict: Honoured, Tests: []string{"TestApply_AtomicInstallRollsBack"}},
	{Path: "helmDeploymentConfig.install.force", Since: "v0.110", Verdict: Honoured, How: helmForce},
	{Path: "helmDeploymentConfig.install.skipSchemaValidation", Since: "v0.141", Verdict: Honoured, How: "At apply and in the plan's preview.",
		Tests: []string{"TestApply_SkipSchemaValidation", "TestPreview_SkipSchemaValidation"}},
	{Path: "helmDeploymentConfig.install.takeOwnership", Since: "v0.144", Verdict: Honoured, How: "Helm adopts existing objects without its annotations.",
		Tests: []string{"TestApply_TakeOwnership"}},
	{Path: "helmDeploymentConfig.install.wait", Since: "v0.144", Verdict: Honoured, How: helmWait},
	{Path: "helmDeploymentConfig.install.timeout", Since: "v0.22", Verdict: Differs, How: helmTimeout, Tests: []string{"TestApply_AtomicInstallRollsBack"}},
	{Path: "helmDeploymentConfig.upgrade", Since: "v0.22", Verdict: Honoured, How: "Its own settings; the install's do not apply to an upgrade.", Tests: []string{"TestApply_SkipSchemaValidation"}},
	{Path: "helmDeploymentConfig.upgrade.atomic", Since: "v0.22", Verdict: Honoured},
	{Path: "helmDeploymentConfig.upgrade.force", Since: "v0.110", Verdict: Honoured, How: helmForce},
	{Path: "helmDeploymentConfig.upgrade.skipSchemaValidation", Since: "v0.141", Verdict: Honoured, How: "At apply and in the plan's preview of an upgrade.",
		Tests: []string{"TestApply_SkipSchemaValidation", "TestPreview_SkipSchemaValidation"}},
	{Path: "helmDeploymentConfig.upgrade.takeOwnership", Since: "v0.144", Verdict: Honoured, How: "Helm adopts existing objects without its annotations.",
		Tests: []string{"TestApply_UpgradeTakeOwnership"}},
	{Path: "helmDeploymentConfig.upgrade.wait", Since: "v0.144", Verdict: Honoured, How: helmWait},
	{Path: "helmDeploymentConfig.upgrade.timeout", Since: "v0.22", Verdict: Differs, How: helmTimeout},
	{Path: "helmDeploymentConfig.uninstall", Since: "v0.22", Verdict: Honoured, How: "`atomic`, `force` and the like are plan warnings: Landscaper does not hand them to Helm's uninstall.",
		Tests: []string{"TestConfigWarnings_UnknownFields"}},
	{Path: "helmDeploymentConfig.uninstall.wait", Since: "v0.144", Verdict: Differs,
		How: "A destroy always waits until the release's objects are gone (with watches), with or without it.", Tests: []string{"TestApply_HelmReleaseWaitsForReadiness"}},
	{Path: "helmDeploymentConfig.uninstall.timeout", Since: "v0.22", Verdict: Differs, How: helmTimeout},
	{Path: "deletionGroups", Since: "v0.89", Verdict: Honoured, How: "For `helmDeployment: false` only, as Landscaper.", Same: "`deletionGroups` of the manifest deployer"},
	{Path: "deletionGroupsDuringUpdate", Since: "v0.89", Verdict: Honoured, How: "For `helmDeployment: false` only.", Same: "`deletionGroups` of the manifest deployer"},
	{Path: "continuousReconcile", Since: "v0.15", Verdict: Differs, How: "Plan warning, as for the manifest deployer.", Tests: []string{"TestAccRenderedInstallation_continuousReconcileWarning"}},
}}
