// Package landscaperfixture puts into a cluster what a running Landscaper
// leaves behind after it installed one root Installation successfully, so
// that migration from Landscaper can be tested without Landscaper.
//
// Build returns the objects as plain data (no cluster needed; unit tests
// read them with a fake client). Create puts them into a real cluster:
// custom resource definitions of this package's own that accept
// Landscaper's landscaper.gardener.cloud/v1alpha1 kinds, the host objects
// (Installations, Execution, DeployItems, Targets, DataObjects, a Context,
// the deploy items' export Secrets) with the status Landscaper's
// controllers write, and in the target namespace what the deployers
// deployed: the manifest deployer's ConfigMap and Deployment, labelled
// with their deploy item, and a Helm release installed with the Helm SDK
// as Landscaper's Helm deployer installs it.
//
// The landscape ("shop") is one root Installation with an inline
// blueprint, a Target import, data imports from DataObjects, an import
// data mapping, data exports with an export data mapping, one manifest
// deploy item, and a subinstallation ("web") with a manifest deploy item
// and a Helm deploy item that depends on it. The shapes (labels,
// annotations, owner references, generated names, DataObject naming, the
// compressed deploy item templates of an Execution, the deployers'
// providerStatus) follow Landscaper's v1alpha1 API and controllers as of
// its 2026 sources; the text here is this package's own.
package landscaperfixture
