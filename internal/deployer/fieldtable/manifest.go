package fieldtable

// targetNameHow is what becomes of Landscaper's targetName.
const targetNameHow = "Read, wait or delete on the cluster of the named target, with the item's ownership rules. The name is " +
	"resolved among the installation's target imports by their Target's `metadata.name` (Landscaper: any Target of the " +
	"deploy item's namespace; here a blueprint reaches only what it imports); a name none of them has, or that two " +
	"different imports share, fails the plan naming it."

// Manifest is the manifest deployer's configuration
// (manifest.deployer.landscaper.gardener.cloud/v1alpha2; v1alpha1's plain
// list of manifests is read too).
var Manifest = Table{Title: "Manifest deployer (`landscaper.gardener.cloud/kubernetes-manifest`)", Rows: []Row{
	{Path: "apiVersion", Since: "≤ v0.5", Verdict: Honoured, How: "`…/v1alpha2`; `…/v1alpha1` (a plain list of manifests, each with policy `manage`).",
		Tests: []string{"TestParseConfig_Valid", "TestApply_ListAndV1alpha1"}},
	{Path: "kind", Since: "≤ v0.5", Verdict: Honoured, How: "Must be `ProviderConfiguration` when set.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "updateStrategy", Since: "≤ v0.5", Verdict: Differs,
		How: "Every strategy is one forced server-side apply of the item's field manager. `update`, `patch` and `mergeOverwrite`: " +
			"the manifest's values win. `merge`: values the cluster holds stay, missing fields are added, and refresh reports as drift " +
			"only what the apply would repair (a missing field). Under every strategy a field another manager added stays and a field " +
			"this item dropped from its manifest is removed. Landscaper's `update` replaces the object and its `patch` sends a merge " +
			"patch from the live object, so both remove fields other managers added (an HPA's replicas, injected annotations), which " +
			"then fight with those managers at every apply; its `merge` and `mergeOverwrite` never remove a field dropped from the " +
			"manifest. Server-side apply needs no read before the write and leaves other managers' fields alone.",
		Tests: []string{"TestApply_UpdateStrategies", "TestApply_StrategiesAndOtherManagers", "TestDrift_MergeKeepsClusterValues", "TestKeepExisting"}},
	{Path: "readinessChecks", Since: "v0.11", Verdict: Honoured, How: "Checked after every apply, until the item's timeout.", Tests: []string{"TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.disableDefault", Since: "v0.11", Verdict: Honoured, How: "Skips the default checks of Pods and workloads.",
		Tests: []string{"TestApply_ReadinessChecksSwitchedOff"}},
	{Path: "readinessChecks.custom", Since: "v0.11", Verdict: Honoured, Tests: []string{"TestApply_CustomReadinessChecks", "TestAccInstallation_customReadinessCheckLandscaperForm"}},
	{Path: "readinessChecks.custom[].name", Since: "v0.11", Verdict: Honoured, How: "Required, as Landscaper validates; named in every message.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "readinessChecks.custom[].disabled", Since: "v0.11", Verdict: Honoured, How: "The check is skipped.",
		Tests: []string{"TestApply_ReadinessChecksSwitchedOff"}},
	{Path: "readinessChecks.custom[].resourceSelector", Since: "v0.11", Verdict: Honoured, How: "An object that does not exist (yet) is not ready.", Tests: []string{"TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.custom[].resourceSelector[].apiVersion", Since: "v0.11", Verdict: Honoured, Tests: []string{"TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.custom[].resourceSelector[].kind", Since: "v0.11", Verdict: Honoured, Tests: []string{"TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.custom[].resourceSelector[].name", Since: "v0.11", Verdict: Honoured, Tests: []string{"TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.custom[].resourceSelector[].namespace", Since: "v0.11", Verdict: Honoured, Tests: []string{"TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.custom[].resourceSelector[].uid", Verdict: Differs, How: "Not a Landscaper field: the reference type is the one the provider status uses; ignored in a configuration."},
	{Path: "readinessChecks.custom[].labelSelector", Since: "v0.11", Verdict: Honoured, How: "A selector that matches no object is not ready.", Tests: []string{"TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.custom[].labelSelector.apiVersion", Since: "v0.11", Verdict: Honoured, Tests: []string{"TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.custom[].labelSelector.kind", Since: "v0.11", Verdict: Honoured, Tests: []string{"TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.custom[].labelSelector.matchLabels", Since: "v0.11", Verdict: Honoured, How: "At least one label, as Landscaper validates.",
		Tests: []string{"TestApply_CustomReadinessChecks", "TestParseConfig_Invalid"}},
	{Path: "readinessChecks.custom[].requirements", Since: "v0.11", Verdict: Honoured, How: "At least one, as Landscaper validates.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "readinessChecks.custom[].requirements[].jsonPath", Since: "v0.11", Verdict: Honoured,
		How:   "With or without braces and leading dot. A path that selects nothing fails every operator but `!`; a path that selects several values needs each to meet the operator.",
		Tests: []string{"TestRequirementMet"}},
	{Path: "readinessChecks.custom[].requirements[].operator", Since: "v0.11", Verdict: Honoured, How: "`exists`, `!`, `=`, `==`, `!=`, `in`, `notin`, with Landscaper's value counts.",
		Tests: []string{"TestRequirementMet", "TestRequirementValidate_LandscaperForm"}},
	{Path: "readinessChecks.custom[].requirements[].values", Since: "v0.11", Verdict: Honoured,
		How:   "Landscaper's form `[{value: …}]`; an entry of another shape (`[\"true\"]`) is a plan error naming it, as Landscaper refuses it when it checks.",
		Tests: []string{"TestRequirementMet", "TestRequirementValidate_LandscaperForm", "TestApply_CustomReadinessChecks"}},
	{Path: "readinessChecks.custom[].requirements[].values[].value", Since: "v0.11", Verdict: Honoured, How: "Compared by JSON value (a string is not the boolean it spells).",
		Tests: []string{"TestRequirementMet"}},
	{Path: "readinessChecks.custom[].targetName", Since: "v0.110", Verdict: Differs, How: targetNameHow,
		Tests: []string{"TestTargetName_ReadWaitDeleteOnTheNamedTarget", "TestRender_TargetNameMustBeAnImport", "TestAccInstallation_targetNameOnASecondCluster"}},
	{Path: "manifests", Since: "≤ v0.5", Verdict: Honoured, How: "Applied in the order CRDs, cluster-scoped, namespaced.", Tests: []string{"TestConformance_Manifest", "TestAccInstallation_crdAndItsResourceInOneApply"}},
	{Path: "manifests[].policy", Since: "v0.12", Verdict: Differs,
		How: "`fallback`, `keep`, `ignore`, `immutable` as Landscaper: `fallback` touches an existing object only if it carries this " +
			"item's label (or is one it adopted from Landscaper), else leaves it alone and does not record it. `manage` refuses, naming " +
			"the owner, an object another deploy item's label claims, where Landscaper takes it over: two items writing one object " +
			"would overwrite each other at every apply without a word; `fallback` leaves it alone instead.",
		Tests: []string{"TestApply_PoliciesOnDropAndDelete", "TestApply_OwnedByOtherItem", "TestApply_FallbackLeavesUnlabelledObjects"}},
	{Path: "manifests[].manifest", Since: "v0.12", Verdict: Honoured, How: "One object; `*List` kinds are expanded; `generateName` is refused.",
		Tests: []string{"TestConformance_Manifest", "TestDecodeManifests_Invalid"}},
	{Path: "manifests[].annotateBeforeCreate", Since: "v0.39", Verdict: Differs,
		How:   "Sent with every apply (server-side apply owns the annotations), where Landscaper sets them only when it creates the object.",
		Tests: []string{"TestApply_PatchAfterDeploymentAndAnnotations"}},
	{Path: "manifests[].annotateBeforeDelete", Since: "v0.39", Verdict: Honoured, Tests: []string{"TestDeletePatches"}},
	{Path: "manifests[].patchAfterDeployment", Since: "v0.110", Verdict: Honoured, How: "A JSON merge patch after readiness; a re-apply does not write again.",
		Tests: []string{"TestApply_PatchAfterDeploymentAndAnnotations"}},
	{Path: "manifests[].patchBeforeDelete", Since: "v0.110", Verdict: Honoured, Tests: []string{"TestDeletePatches"}},
	{Path: "manifests[].leftToOthers", Since: "", Verdict: Differs,
		How: "An extension, the provider's own: fields other field managers own (`.spec.replicas` an HPA scales, " +
			"`.spec.template.spec.containers[0].image` a CI sets, `.metadata.annotations['example.com/ca']` a webhook writes) " +
			"are taken out of the object before it is applied, previewed or compared for drift, so the apply leaves them to " +
			"their managers. Unlisted, such a field is drift naming its manager and the apply takes it back, as Landscaper's " +
			"next reconcile would. A listed field that no other manager holds yet is removed by the next apply (server-side " +
			"apply drops what its manager stops setting), so list a field once its manager has taken it. Manifest items only; " +
			"a Helm release's objects are Helm's to apply.",
		Tests: []string{"TestLeftToOthers_OtherManagersKeepTheirFields", "TestParseLeftPath"}},
	{Path: "exports", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].key", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].jsonPath", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].fromResource", Since: "v0.12", Verdict: Honoured, How: "Required for the manifest deployer.", Tests: []string{"TestApply_Exports", "TestParseConfig_Invalid"}},
	{Path: "exports.exports[].fromResource.apiVersion", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].fromResource.kind", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].fromResource.name", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].fromResource.namespace", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].fromResource.uid", Verdict: Differs, How: "Not a Landscaper field (the provider status's reference type); ignored in a configuration."},
	{Path: "exports.exports[].fromObjectRef", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].fromObjectRef.apiVersion", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].fromObjectRef.kind", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].fromObjectRef.jsonPath", Since: "v0.12", Verdict: Honoured, Tests: []string{"TestApply_Exports"}},
	{Path: "exports.exports[].targetName", Since: "v0.110", Verdict: Differs, How: targetNameHow,
		Tests: []string{"TestTargetName_ReadWaitDeleteOnTheNamedTarget", "TestRender_TargetNameMustBeAnImport", "TestAccInstallation_targetNameOnASecondCluster"}},
	{Path: "deletionGroups", Since: "v0.89", Verdict: Honoured, How: "Groups run in order; an object no group selects is not deleted, as in Landscaper.", Tests: []string{"TestDelete_DeletionGroups"}},
	{Path: "deletionGroups[].predefinedResourceGroup", Since: "v0.89", Verdict: Honoured, Tests: []string{"TestDelete_DeletionGroups"}},
	{Path: "deletionGroups[].predefinedResourceGroup.type", Since: "v0.89", Verdict: Honoured, How: "`namespaced-resources`, `cluster-scoped-resources`, `crds`, `empty`.",
		Tests: []string{"TestDelete_DeletionGroups", "TestParseConfig_Invalid"}},
	{Path: "deletionGroups[].predefinedResourceGroup.forceDelete", Since: "v0.89", Verdict: Honoured, How: "Removes the finalizers of what lingers."},
	{Path: "deletionGroups[].customResourceGroup", Since: "v0.89", Verdict: Honoured, Tests: []string{"TestDelete_DeletionGroups"}},
	{Path: "deletionGroups[].customResourceGroup.resources", Since: "v0.89", Verdict: Honoured, Tests: []string{"TestDelete_DeletionGroups"}},
	{Path: "deletionGroups[].customResourceGroup.resources[].apiVersion", Since: "v0.89", Verdict: Honoured, Tests: []string{"TestDelete_DeletionGroups"}},
	{Path: "deletionGroups[].customResourceGroup.resources[].kind", Since: "v0.89", Verdict: Honoured, Tests: []string{"TestDelete_DeletionGroups"}},
	{Path: "deletionGroups[].customResourceGroup.resources[].names", Since: "v0.89", Verdict: Honoured, Tests: []string{"TestDelete_DeletionGroups"}},
	{Path: "deletionGroups[].customResourceGroup.resources[].namespaces", Since: "v0.89", Verdict: Honoured, Tests: []string{"TestDelete_DeletionGroups"}},
	{Path: "deletionGroups[].customResourceGroup.forceDelete", Since: "v0.89", Verdict: Honoured, How: "Removes the finalizers of what lingers."},
	{Path: "deletionGroups[].customResourceGroup.deleteAllResources", Since: "v0.89", Verdict: Honoured,
		How:   "Also deletes objects of the types that this item does not manage, except after a lost state (the inventory's record proves nothing).",
		Tests: []string{"TestDelete_DeletionGroups", "TestDelete_RebuiltTrustsOnlyTheOwnerLabel"}},
	{Path: "deletionGroups[].customResourceGroup.targetName", Since: "v0.110", Verdict: Differs,
		How: targetNameHow + " Needs `deleteAllResources: true`, as Landscaper requires: the group deletes every object of its types " +
			"there, and none of the item's own; after a lost state it deletes nothing there.",
		Tests: []string{"TestTargetName_ReadWaitDeleteOnTheNamedTarget", "TestParseConfig_Invalid", "TestAccInstallation_targetNameOnASecondCluster"}},
	{Path: "deletionGroupsDuringUpdate", Since: "v0.89", Verdict: Honoured, How: "Orders the deletion of objects an update drops.", Same: "`deletionGroups`"},
	{Path: "continuousReconcile", Since: "v0.15", Verdict: Differs,
		How:   "Plan warning: there is no controller to reconcile on a schedule; every plan and refresh checks for drift and the next apply repairs it.",
		Tests: []string{"TestAccRenderedInstallation_continuousReconcileWarning"}},
	{Path: "kubeconfig", Since: "≤ v0.5, removed in v0.119", Verdict: Refused, How: "Plan error: use the deploy item's target.", Tests: []string{"TestParseConfig_Invalid"}},
	{Path: "deleteTimeout", Since: "v0.8, removed in v0.90", Verdict: Differs,
		How: "Kept from older Landscaper versions: bounds a deletion; unset, the deploy item's timeout does.", Tests: []string{"TestDelete_DeleteTimeout"}},
}}
