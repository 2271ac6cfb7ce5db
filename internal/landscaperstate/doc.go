// Package landscaperstate reads what a running Landscaper keeps in its
// host cluster for one root Installation, so the provider can take the
// landscape over without redeploying it.
//
// API:
//
//	land, err := landscaperstate.Read(ctx, dynamicClient, namespace, name)
//
// Read lists Landscaper's kinds (landscaper.gardener.cloud/v1alpha1
// Installation, Execution, DeployItem, DataObject, Target, Context) in the
// namespace once, in parallel, reads the Secrets it needs (deploy item
// exports, Targets' secretRef), and returns a Landscape:
//
//   - Manifest: the root Installation as a user keeps it in git (the
//     `manifest` of landscaper_installation), ManifestObjects: the
//     DataObjects, Targets and Context it imports, as one YAML stream
//     (`manifest_objects`; sensitive: Targets hold kubeconfigs).
//   - Root: the Installation tree. Each Installation has its phase and
//     job IDs, the import values and Targets Landscaper recorded for it
//     (after importDataMappings), its exports, its Execution and its
//     subinstallations (by spec name, the name in the parent's
//     blueprint). Each Execution lists its DeployItems in template order.
//   - Per DeployItem, what is deployed where: Name (in the blueprint),
//     the object's name, Type, Config, DependsOn/Timeout from the
//     template, the resolved Target, Resources (the deployer's
//     providerStatus.managedResources), Helm (release name and namespace
//     of a Helm deploy item Helm installed), OwnerLabel (the label
//     Landscaper's deployer put on the objects it applied) and Exports.
//   - Objects: every host object that is Landscaper's record of the
//     landscape, for whoever removes them after a migration.
//
// Read follows Landscaper's own links: status.executionRef,
// status.subInstCache and status.deployItemCache, falling back to the
// encompassed-by and managed-by labels when a cache is missing; import
// records and exports by their data.landscaper.gardener.cloud labels.
// Read judges nothing: a phase other than Succeeded, a JobID different
// from JobIDFinished, or Orphaned deploy items are reported; Settled
// turns them into one error naming each object, for a caller that
// refuses to take over a landscape Landscaper has not finished. A link that points nowhere is an error naming the object and
// the field; no error quotes a value (Targets and exports hold secrets).
package landscaperstate
